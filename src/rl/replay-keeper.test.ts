import { describe, expect, it } from 'vitest';
import { REPLAY_KEEP, ReplayKeeper } from './replay-keeper.ts';

describe('ReplayKeeper', () => {
  const config = { prompts: 16, replay: 0.125, replayMax: 0.5, distillCoef: 0, distillMax: 0 };

  it('keeps the rest share while the replayed level passes', () => {
    const k = new ReplayKeeper(config);
    for (let i = 0; i < 30; i++) k.observe([1, 1, 1, 1, 1, 1, 1, 0]);
    expect(k.success).toBeGreaterThan(REPLAY_KEEP - 0.05);
    expect(k.prompts()).toBe(2);
  });

  it('rises linearly to the top share as the success falls to 0, and back', () => {
    const k = new ReplayKeeper(config);
    k.restore(REPLAY_KEEP / 2);
    expect(k.share()).toBeCloseTo((0.125 + 0.5) / 2, 10);
    for (let i = 0; i < 60; i++) k.observe([0, 0, 0, 0]);
    expect(k.prompts()).toBe(8);
    for (let i = 0; i < 60; i++) k.observe([1, 1]);
    expect(k.prompts()).toBe(2);
  });

  it('a step without replayed answers changes nothing; a top at or below the rest is fixed', () => {
    const k = new ReplayKeeper({ ...config, replayMax: 0.125 });
    k.observe([]);
    expect(k.success).toBe(1);
    for (let i = 0; i < 60; i++) k.observe([0]);
    expect(k.prompts()).toBe(2);
  });

  it('raises the distillation weight the same way, and keeps it fixed with no top above it', () => {
    const k = new ReplayKeeper({ ...config, distillCoef: 0.1, distillMax: 1.1 });
    expect(k.distillWeight()).toBe(0.1);
    k.restore(REPLAY_KEEP / 2);
    expect(k.distillWeight()).toBeCloseTo(0.6, 10);
    k.restore(0);
    expect(k.distillWeight()).toBeCloseTo(1.1, 10);
    const fixed = new ReplayKeeper({ ...config, distillCoef: 0.3 });
    fixed.restore(0);
    expect(fixed.distillWeight()).toBe(0.3);
  });

  it('refuses a saved success outside [0, 1]', () => {
    const k = new ReplayKeeper(config);
    expect(() => k.restore(1.5)).toThrow(/replay success 1.5 is not in \[0, 1\]/);
    expect(() => k.restore(Number.NaN)).toThrow();
    expect(k.success).toBe(1);
  });
});
