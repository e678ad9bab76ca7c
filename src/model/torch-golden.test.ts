import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpu-backend.ts';
import { BOS, PAD, VOCAB, encode } from '../tasks/tokenizer.ts';
import { packBatch } from './batch.ts';
import { loadCheckpoint } from './checkpoint.ts';
import { AdamW, type OptimizerConfig } from './optimizer.ts';
import type { Transformer } from './transformer.ts';

/** What scripts/torch_reference.py prints (float64 PyTorch), stored in src/model/golden/. */
interface Golden {
  checkpoint: string;
  sha256: string;
  text: string;
  tokens: number[];
  loss: number;
  logits: number[][];
  gradNorms: Record<string, number>;
  gradSamples: Record<string, { index: number[]; value: number[] }>;
  optimizer: OptimizerConfig;
  steps: number;
  stepGradNorms: number[];
  lossesAfterSteps: number[];
}

/** What the engine computes for the golden's sequence. */
interface Engine {
  logits: Float32Array;
  loss: number;
  grads: Map<string, Float32Array>;
  stepGradNorms: number[];
  lossesAfterSteps: number[];
}

interface Tolerance {
  atol: number;
  rtol: number;
}

/**
 * |engine − golden| ≤ atol + rtol·|golden|: the float32 engine against the float64 golden, each
 * bound a few times the float32 error measured on the shipped bases. Logits: the error is about
 * 1e-6 of their range (±20), so up to 2.6e-5. The loss, a mean of log-probabilities, and the
 * gradient norms stay within ~1e-6 relative. A gradient entry's error scales with its tensor's
 * gradient (cancellation in sums over the sequence), so its atol is a fraction of that norm;
 * e.g. the key part of qkv.bias is exactly 0 in exact math (softmax ignores a key bias) and
 * ~1e-7 in float32. AdamW divides each entry by its own magnitude, so float32 noise in small
 * entries moves weights by up to lr: after five steps the losses and norms differ by up to 5e-6
 * relative.
 */
const TOL = {
  logits: { atol: 2e-5, rtol: 2e-5 },
  loss: { atol: 1e-6, rtol: 1e-6 },
  gradNorm: { atol: 0, rtol: 5e-6 },
  /** atol is a fraction of the tensor's gradient norm. */
  grad: { atol: 5e-7, rtol: 1e-5 },
  steps: { atol: 1e-5, rtol: 2e-5 },
} satisfies Record<string, Tolerance>;

interface Comparison {
  pass: boolean;
  maxAbs: number;
  maxRel: number;
  detail: string;
}

function compare(
  label: string,
  got: ArrayLike<number>,
  want: ArrayLike<number>,
  tol: Tolerance,
  name: (i: number) => string = (i) => `[${i}]`,
): Comparison {
  if (got.length !== want.length)
    return {
      pass: false,
      maxAbs: NaN,
      maxRel: NaN,
      detail: `${label}: ${got.length} values, golden ${want.length}`,
    };
  let maxAbs = 0;
  let maxRel = 0;
  let worst = -1;
  let worstExcess = 0;
  for (let i = 0; i < want.length; i++) {
    const diff = Math.abs(got[i] - want[i]);
    maxAbs = Math.max(maxAbs, diff);
    if (want[i] !== 0) maxRel = Math.max(maxRel, diff / Math.abs(want[i]));
    const excess = diff / (tol.atol + tol.rtol * Math.abs(want[i]));
    // NaN fails too.
    if (!(excess <= 1) && (worst < 0 || excess > worstExcess || Number.isNaN(excess))) {
      worst = i;
      worstExcess = excess;
    }
  }
  const stats = `max |diff| ${maxAbs.toExponential(2)}, max rel ${maxRel.toExponential(2)}`;
  if (worst < 0) return { pass: true, maxAbs, maxRel, detail: `${label}: ${stats}` };
  return {
    pass: false,
    maxAbs,
    maxRel,
    detail:
      `${label}${name(worst)}: engine ${got[worst]}, golden ${want[worst]} ` +
      `(atol ${tol.atol}, rtol ${tol.rtol}; ${stats})`,
  };
}

function expectClose(...args: Parameters<typeof compare>): void {
  const r = compare(...args);
  expect(r.pass, r.detail).toBe(true);
}

const root = new URL('../..', import.meta.url);

function regenerate(base: string, g: Golden): string {
  const text = `'${g.text.replaceAll("'", `'\\''`)}'`;
  return (
    `/usr/bin/python3 scripts/torch_reference.py ${g.checkpoint} ${text} ` +
    `--steps ${g.steps} --lr ${g.optimizer.lr}` +
    (g.optimizer.maxGradNorm === 1 ? '' : ` --max-grad-norm ${g.optimizer.maxGradNorm}`) +
    ` > src/model/golden/${base}.json && ` +
    `npx prettier --write src/model/golden/${base}.json`
  );
}

async function runEngine(
  bytes: Uint8Array,
  g: Golden,
  perturb?: (model: Transformer) => Promise<void>,
): Promise<Engine> {
  const { model } = loadCheckpoint(new CpuBackend(), bytes);
  const be = model.be;
  await perturb?.(model);
  const T = g.tokens.length;
  const V = model.config.vocabSize;
  const batch = packBatch([Uint32Array.from(g.tokens)], PAD);

  const ws = model.inference({ rows: T, cacheRows: T, probsPerHead: 0 }, 1);
  model.writeTokens(ws, batch);
  model.runInference(ws, { B: 1, Tq: T, cap: T, qOffset: 0 });
  const logits = (await be.read(ws.logits)).slice(0, T * V) as Float32Array;

  // Row t predicts token t + 1: the mean over the T − 1 predictions, as in the golden.
  const weights = new Float32Array(T).fill(1 / (T - 1), 0, T - 1);
  const trainLoss = async (): Promise<number> => {
    model.forwardTrain(batch);
    const { logp } = await model.readTrainStats();
    model.backward(weights);
    let nll = 0;
    for (let t = 0; t < T - 1; t++) nll -= logp[t];
    return nll / (T - 1);
  };
  const loss = await trainLoss();
  const grads = new Map<string, Float32Array>();
  for (const p of model.params.list) grads.set(p.spec.name, await be.read(p.grad));

  const opt = new AdamW(model, g.optimizer);
  const stepGradNorms: number[] = [];
  const lossesAfterSteps: number[] = [];
  for (let s = 0; s < g.steps; s++) {
    opt.update();
    stepGradNorms.push((await opt.settle()).gradNorm);
    lossesAfterSteps.push(await trainLoss());
  }
  opt.free();
  model.free();
  return { logits, loss, grads, stepGradNorms, lossesAfterSteps };
}

function l2(x: Float32Array): number {
  let s = 0;
  for (const v of x) s += v * v;
  return Math.sqrt(s);
}

// The third golden lifts the clip above every gradient norm, so AdamW's unclipped branch is held
// to PyTorch too (both sequences' norms exceed 1, so the others clip at every step).
for (const base of ['arithmetic-tiny', 'listlang-tiny', 'listlang-tiny-unclipped']) {
  describe(`${base} matches the PyTorch golden (float64)`, () => {
    const g = JSON.parse(
      readFileSync(new URL(`src/model/golden/${base}.json`, root), 'utf8'),
    ) as Golden;
    let bytes: Uint8Array;
    let engine: Engine;

    beforeAll(async () => {
      bytes = new Uint8Array(readFileSync(new URL(g.checkpoint, root)));
      const sha = createHash('sha256').update(bytes).digest('hex');
      if (sha !== g.sha256) {
        throw new Error(
          `golden is stale: ${g.checkpoint} has SHA-256 ${sha}, src/model/golden/${base}.json ` +
            `was made from ${g.sha256}; regenerate it (PyTorch: see docs/model.md) with\n` +
            regenerate(base, g),
        );
      }
      engine = await runEngine(bytes, g);
    });

    it('tokens: the begin token, then one per character', () => {
      const body = g.text.startsWith(VOCAB[BOS]) ? g.text.slice(1) : g.text;
      expect(g.tokens).toEqual([BOS, ...encode(body)]);
    });

    it('logits at every position', () => {
      const V = g.logits[0].length;
      expectClose('logits', engine.logits, g.logits.flat(), TOL.logits, (i) => {
        return `[t=${Math.floor(i / V)}][${VOCAB[i % V]}]`;
      });
    });

    it('loss', () => {
      expectClose('loss', [engine.loss], [g.loss], TOL.loss);
    });

    it('gradients: every tensor norm and the sampled entries', () => {
      const names = Object.keys(g.gradNorms);
      expect([...engine.grads.keys()]).toEqual(names);
      const norms = names.map((n) => l2(engine.grads.get(n)!));
      expectClose(
        'grad norm',
        norms,
        Object.values(g.gradNorms),
        TOL.gradNorm,
        (i) => ` ${names[i]}`,
      );
      for (const n of names) {
        const { index, value } = g.gradSamples[n];
        const grad = engine.grads.get(n)!;
        const tol = { atol: TOL.grad.atol * g.gradNorms[n], rtol: TOL.grad.rtol };
        expectClose(
          `grad ${n}`,
          index.map((k) => grad[k]),
          value,
          tol,
          (i) => `[${index[i]}]`,
        );
      }
    });

    it('AdamW steps: gradient norms (clipping) and the loss after each step', () => {
      expectClose('grad norm before step', engine.stepGradNorms, g.stepGradNorms, TOL.steps);
      expectClose('loss after step', engine.lossesAfterSteps, g.lossesAfterSteps, TOL.steps);
    });

    it('is not vacuous: one weight off by 1e-4 fails the logits', async () => {
      // The lm_head row of the first character's token: its logit at every position moves.
      const off = await runEngine(bytes, g, async (model) => {
        const w = model.params.get('lm_head.weight').value;
        const data = await model.be.read(w);
        data[g.tokens[1] * model.config.dModel] += 1e-4;
        model.be.write(w, data);
      });
      expect(compare('logits', off.logits, g.logits.flat(), TOL.logits).pass).toBe(false);
    });
  });
}
