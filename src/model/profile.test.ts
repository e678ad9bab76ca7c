import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpu-backend.ts';
import { QUICK_BENCH } from './benchmark.ts';
import { modelConfig } from './config.ts';
import { READ_EVERY } from './generate.ts';
import { profileModel } from './profile.ts';
import { Transformer } from './transformer.ts';

describe('the step profile', () => {
  it('splits a training step and a decoding step into phases and kernels', async () => {
    const be = new CpuBackend();
    const model = Transformer.create(be, modelConfig('tiny', 48), 1);
    const p = await profileModel(model, { ...QUICK_BENCH, batch: 2 }, 2);
    expect(p.training.phases.map((x) => x.phase)).toEqual([
      'forward',
      'backward',
      'optimizer (clip + AdamW)',
    ]);
    // Every launch of a step is one kernel call in the table.
    const calls = (k: typeof p.training.kernels) => k!.reduce((n, x) => n + x.calls, 0);
    expect(calls(p.training.kernels)).toBe(p.training.launches);
    expect(p.training.kernels!.map((k) => k.kernel)).toContain('adamw');
    expect(p.training.reads).toBe(0);
    expect(p.decoding.phases.map((x) => x.phase)).toEqual([
      'forward (one row per sequence)',
      'sample',
      'read tokens to the host',
    ]);
    expect(calls(p.decoding.kernels)).toBe(p.decoding.launches);
    expect(p.decoding.kernels!.find((k) => k.kernel === 'sample')?.calls).toBe(1);
    // The tokens and their log-probabilities, in one read every READ_EVERY steps.
    expect(p.decoding.reads).toBe(1 / READ_EVERY);
    for (const x of [...p.training.phases, ...p.decoding.phases]) expect(x.ms).toBeGreaterThan(0);
  });
});
