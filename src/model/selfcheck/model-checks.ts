import type { Backend } from '../../engine/backend.ts';
import { CpuBackend } from '../../engine/cpu/cpu-backend.ts';
import { uniformAt } from '../../engine/random.ts';
import type { CheckResult, SelfCheck } from '../../engine/selfcheck/check.ts';
import { compare, type Tolerance } from '../../engine/selfcheck/compare.ts';
import { finiteDifferences } from '../../engine/selfcheck/gradient.ts';
import { packBatch, type TokenBatch } from '../batch.ts';
import type { ModelConfig } from '../config.ts';
import { forward } from '../forward.ts';
import { generate } from '../generate.ts';
import { AdamW, DEFAULT_OPTIMIZER } from '../optimizer.ts';
import { Transformer } from '../transformer.ts';
import { Workspace } from '../workspace.ts';

/** A model small enough for SwiftShader and finite differences, with every feature switched on. */
export const CHECK_CONFIG: ModelConfig = {
  vocabSize: 13,
  contextLength: 16,
  layers: 2,
  dModel: 16,
  heads: 2,
  mlpRatio: 2,
  ropeBase: 10000,
  places: { firstDigit: 3, maxPlace: 4 },
};

const PAD = 0;
const EOS = 1;

/** Three sequences of different lengths (so two are left-padded), deterministic. */
export function checkBatch(): { batch: TokenBatch; weights: Float32Array } {
  const lengths = [9, 6, 4];
  const seqs = lengths.map((n, b) =>
    Uint32Array.from(
      { length: n },
      (_, t) => 2 + Math.floor(uniformAt(77 + b, t) * (CHECK_CONFIG.vocabSize - 2)),
    ),
  );
  const batch = packBatch(seqs, PAD);
  const weights = new Float32Array(batch.B * batch.T);
  for (let b = 0; b < batch.B; b++) {
    for (let t = batch.start[b]; t < batch.T - 1; t++)
      weights[b * batch.T + t] = uniformAt(5, b * 100 + t) - 0.3;
  }
  return { batch, weights };
}

function result(
  name: string,
  kind: CheckResult['kind'],
  parts: { label: string; got: ArrayLike<number>; want: ArrayLike<number> }[],
  tol: Tolerance,
): CheckResult {
  let maxError = 0;
  const bad: string[] = [];
  for (const p of parts) {
    const c = compare(p.got, p.want, tol);
    maxError = Math.max(maxError, c.maxError);
    if (!c.pass) bad.push(`${p.label}[${c.at}] off by ${c.worst.toFixed(2)}× tolerance`);
  }
  return {
    name,
    kind,
    pass: bad.length === 0,
    maxError,
    detail: bad.slice(0, 3).join('; ') || 'ok',
  };
}

async function forwardBackward(be: Backend) {
  const model = Transformer.create(be, CHECK_CONFIG, 3);
  const { batch, weights } = checkBatch();
  model.forwardTrain(batch);
  const stats = await model.readTrainStats();
  model.backward(weights);
  const grads = [];
  for (const p of model.params.list)
    grads.push({ label: p.spec.name, data: await be.read(p.grad) });
  model.free();
  return { stats, grads };
}

const wholeModel: SelfCheck = {
  name: 'transformer: log-probs, entropy and every parameter gradient',
  kind: 'parity',
  async run(be) {
    const [got, want] = [await forwardBackward(be), await forwardBackward(new CpuBackend())];
    return result(
      this.name,
      'parity',
      [
        { label: 'logp', got: got.stats.logp, want: want.stats.logp },
        { label: 'entropy', got: got.stats.entropy, want: want.stats.entropy },
        ...got.grads.map((g, i) => ({
          label: `d ${g.label}`,
          got: g.data,
          want: want.grads[i].data,
        })),
      ],
      { atol: 1e-5, rtol: 1e-3 },
    );
  },
};

/**
 * Finite differences of a loss of the check batch's log-probabilities, on a float64 CPU model
 * with the check weights (seed 3): a sample of 24 coordinates of every parameter tensor.
 */
export function numericGradients(
  lossOfLogp: (logp: ArrayLike<number>) => number,
): { label: string; at: number[]; want: Float64Array }[] {
  const { batch } = checkBatch();
  const ref = new CpuBackend({ float64: true });
  const model = Transformer.create(ref, CHECK_CONFIG, 3);
  const R = batch.B * batch.T;
  const ws = new Workspace(
    ref,
    CHECK_CONFIG,
    { rows: R, cacheRows: R, probsPerHead: R * batch.T },
    true,
    batch.B,
  );
  model.writeTokens(ws, batch);
  ref.write(ws.targets, batch.targets);
  const loss = () => {
    forward(model.ctx, ws, { B: batch.B, Tq: batch.T, cap: batch.T, qOffset: 0 }, true);
    return lossOfLogp(ref.view(ws.logp));
  };
  const out = model.params.list.map((p, i) => {
    const fd = finiteDifferences(ref.view(p.value) as Float64Array, loss, {
      eps: 1e-4,
      samples: 24,
      seed: i + 1,
    });
    return { label: p.spec.name, at: fd.at, want: fd.grad };
  });
  model.free();
  return out;
}

/**
 * Backward against finite differences of the loss, for a sample of every parameter tensor: the
 * analytic gradient from the backend under test, the numeric one from a float64 CPU model.
 */
const wholeModelGradient: SelfCheck = {
  name: 'transformer backward vs finite differences (every tensor)',
  kind: 'gradient',
  async run(be) {
    const { weights } = checkBatch();
    const { grads } = await forwardBackward(be);
    const parts = numericGradients((logp) => {
      let s = 0;
      for (let n = 0; n < weights.length; n++) s -= weights[n] * logp[n];
      return s;
    }).map(({ label, at, want }, i) => ({ label, got: at.map((k) => grads[i].data[k]), want }));
    return result(this.name, 'gradient', parts, { atol: 1e-4, rtol: 1e-2 });
  },
};

async function lossCurve(be: Backend, steps: number): Promise<number[]> {
  const model = Transformer.create(be, CHECK_CONFIG, 4);
  const opt = new AdamW(model, { ...DEFAULT_OPTIMIZER, lr: 3e-3 });
  const { batch } = checkBatch();
  const weights = new Float32Array(batch.B * batch.T);
  for (let b = 0; b < batch.B; b++)
    for (let t = batch.start[b]; t < batch.T - 1; t++) weights[b * batch.T + t] = 1 / 16;
  const losses: number[] = [];
  for (let s = 0; s < steps; s++) {
    model.forwardTrain(batch);
    const { logp } = await model.readTrainStats();
    losses.push(-logp.reduce((acc, v, n) => acc + weights[n] * v, 0));
    model.backward(weights);
    opt.update();
  }
  opt.free();
  model.free();
  return losses;
}

const adamSteps: SelfCheck = {
  name: 'transformer: 20 AdamW steps, loss curve',
  kind: 'training',
  async run(be) {
    const [got, want] = [await lossCurve(be, 20), await lossCurve(new CpuBackend(), 20)];
    const r = result(this.name, 'training', [{ label: 'loss', got, want }], {
      atol: 1e-4,
      rtol: 1e-3,
    });
    const fell = got[19] < got[0] * 0.9;
    return {
      ...r,
      pass: r.pass && fell,
      detail: `${r.detail}; loss ${got[0].toFixed(4)} → ${got[19].toFixed(4)}`,
    };
  },
};

const DISTINCT_PROMPTS = [
  Uint32Array.of(3, 4, 5, 6),
  Uint32Array.of(7, 8),
  Uint32Array.of(9, 10, 11),
];

async function sampleRun(
  be: Backend,
  useCache: boolean,
  temperature: number,
  { prompts = DISTINCT_PROMPTS, sharePrompts = true } = {},
) {
  const model = Transformer.create(be, CHECK_CONFIG, 5);
  const g = await generate(model, prompts, {
    maxNewTokens: 8,
    temperature,
    topK: 0,
    seed: 21,
    counter: 0,
    eos: EOS,
    pad: PAD,
    useCache,
    sharePrompts,
  });
  model.free();
  return g;
}

function generationParts(
  a: Awaited<ReturnType<typeof sampleRun>>,
  b: Awaited<ReturnType<typeof sampleRun>>,
) {
  return a.tokens.flatMap((t, i) => [
    { label: `tokens ${i}`, got: t, want: b.tokens[i] },
    { label: `logprobs ${i}`, got: a.logprobs[i], want: b.logprobs[i] },
  ]);
}

const kvCache: SelfCheck = {
  name: 'transformer: KV-cache generation equals full recomputation',
  kind: 'parity',
  async run(be) {
    const [cached, full] = [await sampleRun(be, true, 1), await sampleRun(be, false, 1)];
    return result(this.name, 'parity', generationParts(cached, full), { atol: 1e-5, rtol: 1e-4 });
  },
};

const sharedPrefill: SelfCheck = {
  name: 'transformer: a prompt shared by several sequences, prefilled once, samples as each alone',
  kind: 'parity',
  async run(be) {
    // Digits (3–12) and a non-digit (2) in the prompts: the places carried from a shared
    // prefill are checked too.
    const [a, b, c] = [Uint32Array.of(3, 4, 5, 6), Uint32Array.of(7, 8), Uint32Array.of(2, 9, 2)];
    const prompts = [a, b, a, c, b, a];
    const [shared, each] = [
      await sampleRun(be, true, 1, { prompts }),
      await sampleRun(be, true, 1, { prompts, sharePrompts: false }),
    ];
    return result(this.name, 'parity', generationParts(shared, each), { atol: 0, rtol: 0 });
  },
};

const sampling: SelfCheck = {
  name: 'transformer: sampled tokens match the CPU twin for a seed',
  kind: 'parity',
  async run(be) {
    const [got, want] = [await sampleRun(be, true, 1), await sampleRun(new CpuBackend(), true, 1)];
    return result(this.name, 'parity', generationParts(got, want), { atol: 1e-5, rtol: 1e-4 });
  },
};

/** Whole-model checks: run in the page's self-check and in both test suites. */
export const MODEL_CHECKS: readonly SelfCheck[] = [
  wholeModel,
  wholeModelGradient,
  adamSteps,
  kvCache,
  sharedPrefill,
  sampling,
];
