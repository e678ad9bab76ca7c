import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../src/engine/cpu/cpu-backend.ts';
import { packBatch } from '../src/model/batch.ts';
import { loadCheckpoint, saveCheckpoint } from '../src/model/checkpoint.ts';
import { modelConfig, type ModelConfig } from '../src/model/config.ts';
import { paramSpecs } from '../src/model/param-spec.ts';
import { Transformer } from '../src/model/transformer.ts';
import { VocabularyError } from '../src/tasks/errors.ts';
import { BOS, PAD, VOCAB_SIZE, encode, tokenId } from '../src/tasks/tokenizer.ts';
import { forwardProbe, probeTokens } from './model-probe.ts';

const dir = mkdtempSync(join(tmpdir(), 'model-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TINY = modelConfig('tiny', VOCAB_SIZE);
/** The shipped arithmetic base's options: digit places, no RoPE. */
const PLACES_NOPE: ModelConfig = {
  ...TINY,
  rope: false,
  places: { firstDigit: tokenId('0'), maxPlace: 10 },
};

/** A fresh tiny model written to and read back from a checkpoint file, as the CLI does. */
async function loadedModel(config: ModelConfig = TINY): Promise<Transformer> {
  const be = new CpuBackend();
  const file = join(dir, 'tiny.safetensors');
  writeFileSync(file, await saveCheckpoint(Transformer.create(be, config, 5)));
  return loadCheckpoint(be, new Uint8Array(readFileSync(file))).model;
}

const TEXT = '||274+983=168.';

describe('model forward probe', () => {
  it('prepends the begin token unless the text starts with it, and names a bad character', () => {
    const tokens = probeTokens(TEXT);
    expect(tokens[0]).toBe(BOS);
    expect(Array.from(tokens.subarray(1))).toEqual(Array.from(encode(TEXT)));
    expect(probeTokens(`^${TEXT}`)).toEqual(tokens);
    expect(() => probeTokens('47€')).toThrow(VocabularyError);
    expect(() => probeTokens('47€')).toThrow(/"€".*position 2/);
  });

  it.each([
    ['RoPE', TINY],
    ['digit places without RoPE', PLACES_NOPE],
  ])(
    'gives the NLL and last-position logits that Transformer.score gives (%s)',
    async (_, config) => {
      const model = await loadedModel(config);
      const tokens = probeTokens(TEXT);
      const T = tokens.length;
      const probe = await forwardProbe(model, tokens);
      const { logp } = await model.score(packBatch([tokens], PAD));
      let nll = 0;
      for (let t = 0; t < T - 1; t++) nll -= logp[t];
      expect(probe.loss).toBeCloseTo(nll / (T - 1), 6);
      // The last row's target is the pad token: its log-prob comes from the same logits.
      expect(probe.logits).toHaveLength(VOCAB_SIZE);
      const lse = Math.log(probe.logits.reduce((s, x) => s + Math.exp(x), 0));
      expect(probe.logits[PAD] - lse).toBeCloseTo(logp[T - 1], 5);
    },
  );

  it('reports a positive, finite gradient norm per tensor that matches a finite difference', async () => {
    const model = await loadedModel();
    const tokens = probeTokens(TEXT);
    const probe = await forwardProbe(model, tokens);
    expect(probe.gradNorms.map((g) => g.name)).toEqual(paramSpecs(model.config).map((s) => s.name));
    for (const g of probe.gradNorms) {
      expect(Number.isFinite(g.norm), g.name).toBe(true);
      expect(g.norm, g.name).toBeGreaterThan(0);
    }
    expect(probe.gradNorm).toBeCloseTo(Math.hypot(...probe.gradNorms.map((g) => g.norm)), 6);

    // Along the gradient's direction the loss changes at the rate of the gradient's norm.
    const p = model.params.get('lm_head.weight');
    const [value, grad] = [await model.be.read(p.value), await model.be.read(p.grad)];
    const norm = probe.gradNorms.find((g) => g.name === 'lm_head.weight')?.norm ?? 0;
    const eps = 1e-2;
    const lossAt = async (s: number) => {
      model.be.write(
        p.value,
        value.map((v, i) => v + (s * eps * grad[i]) / norm),
      );
      return (await forwardProbe(model, tokens)).loss;
    };
    const slope = ((await lossAt(1)) - (await lossAt(-1))) / (2 * eps);
    expect(slope).toBeCloseTo(norm, 2);
  });

  it('is repeatable: a second probe overwrites the gradients rather than adding to them', async () => {
    const model = await loadedModel();
    const tokens = probeTokens(TEXT);
    const a = await forwardProbe(model, tokens);
    const b = await forwardProbe(model, tokens);
    expect(b.gradNorms).toEqual(a.gradNorms);
    expect(b.loss).toBe(a.loss);
  });

  it('rejects sequences the model cannot run', async () => {
    const model = await loadedModel();
    await expect(forwardProbe(model, Uint32Array.of(BOS))).rejects.toThrow(/at least one token/);
    const long = new Uint32Array(model.config.contextLength + 1).fill(3);
    await expect(forwardProbe(model, long)).rejects.toThrow(/exceed the model's context of 128/);
    await expect(forwardProbe(model, Uint32Array.of(BOS, VOCAB_SIZE))).rejects.toThrow(
      /outside the model's vocabulary/,
    );
  });
});
