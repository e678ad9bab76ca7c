import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpu-backend.ts';
import { packBatch } from './batch.ts';
import { ConfigError, modelConfig, validateConfig, type ModelConfig } from './config.ts';
import { generate } from './generate.ts';
import { parameterCount } from './param-spec.ts';
import { CHECK_CONFIG, MODEL_CHECKS } from './selfcheck/model-checks.ts';
import { Transformer } from './transformer.ts';

describe('model config', () => {
  it('model sizes have the parameter counts they are named for', () => {
    expect(parameterCount(modelConfig('tiny', 48))).toBeGreaterThan(30_000);
    expect(parameterCount(modelConfig('tiny', 48))).toBeLessThan(110_000);
    expect(parameterCount(modelConfig('small', 48))).toBeGreaterThan(500_000);
    expect(parameterCount(modelConfig('small', 48))).toBeLessThan(2_000_000);
  });

  const base: ModelConfig = { ...CHECK_CONFIG };
  it.each([
    [{ heads: 3 }, /heads \(3\) must divide dModel \(16\)/],
    [{ layers: 0 }, /layers must be an integer/],
    [{ contextLength: 5000 }, /contextLength must be an integer in \[2, 1024\]/],
    [{ dModel: 256, heads: 2 }, /head dimension 128 exceeds 64/],
    [{ vocabSize: 1.5 }, /vocabSize/],
    [{ rope: 'yes' as unknown as boolean }, /rope must be true or false/],
    [{ places: { firstDigit: 5, maxPlace: 2 } }, /places.firstDigit must leave 10 digit ids/],
    [{ places: { firstDigit: 3, maxPlace: 0 } }, /places.maxPlace must be an integer in \[1, 64\]/],
  ])('rejects %o before allocating', (patch, message) => {
    expect(() => validateConfig({ ...base, ...patch })).toThrow(ConfigError);
    expect(() => validateConfig({ ...base, ...patch })).toThrow(message);
    expect(() => Transformer.create(new CpuBackend(), { ...base, ...patch }, 1)).toThrow(message);
  });
});

describe('transformer on the CPU backend', () => {
  for (const check of MODEL_CHECKS) {
    it(check.name, async () => {
      const r = await check.run(new CpuBackend());
      expect(r.pass, r.detail).toBe(true);
    });
  }

  it('samples deterministically per seed, differently across seeds', async () => {
    const model = Transformer.create(new CpuBackend(), CHECK_CONFIG, 9);
    const prompts = [Uint32Array.of(2, 3, 4), Uint32Array.of(5, 6)];
    const run = (seed: number) =>
      generate(model, prompts, {
        maxNewTokens: 10,
        temperature: 1,
        seed,
        counter: 0,
        eos: 1,
        pad: 0,
      });
    const [a, b, c] = [await run(1), await run(1), await run(2)];
    expect(a.tokens).toEqual(b.tokens);
    expect(a.tokens).not.toEqual(c.tokens);
  });

  it('without RoPE, one layer cannot tell the order of the earlier tokens', async () => {
    const lastEntropy = async (rope: boolean, seq: number[]) => {
      const config = { ...CHECK_CONFIG, layers: 1, rope, places: undefined };
      const model = Transformer.create(new CpuBackend(), config, 9);
      // Sharpen attention so that position, where it counts, visibly moves the output.
      const qkv = model.params.get('blocks.0.attn.qkv.weight').value;
      const w = await model.be.read(qkv);
      model.be.write(
        qkv,
        w.map((v) => v * 100),
      );
      const { entropy } = await model.score(packBatch([Uint32Array.from(seq)], 0));
      return entropy[seq.length - 1];
    };
    const [a, b] = [
      [2, 5, 7, 9, 4],
      [9, 2, 7, 5, 4],
    ];
    const diff = async (rope: boolean) =>
      Math.abs((await lastEntropy(rope, a)) - (await lastEntropy(rope, b)));
    const [nope, roped] = [await diff(false), await diff(true)];
    expect(nope).toBeLessThan(1e-6);
    expect(roped).toBeGreaterThan(100 * Math.max(nope, 1e-6));
  });

  it('rejects sequences longer than the context', () => {
    const model = Transformer.create(new CpuBackend(), CHECK_CONFIG, 9);
    const long = new Uint32Array(CHECK_CONFIG.contextLength + 1).fill(2);
    expect(() => model.forwardTrain(packBatch([long], 0))).toThrow(
      /exceeds the model's context of 16/,
    );
  });
});
