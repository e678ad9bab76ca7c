import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpu-backend.ts';
import { Transformer } from '../model/transformer.ts';
import { TEST_MODEL_CONFIG } from '../rl/testing/test-model-config.ts';
import { createArithmetic } from '../tasks/index.ts';
import { ceilingEvalDue, supervisedCeiling, type CeilingOptions } from './ceiling.ts';

const OPTS: CeilingOptions = {
  seed: 2,
  steps: 120,
  batch: 16,
  lr: 3e-3,
  easyShare: 0.2,
  evalEvery: 40,
  evalSize: 40,
};

describe('supervised ceiling', () => {
  it('fine-tunes on reference answers at the hard level and measures both levels as it goes', async () => {
    const family = createArithmetic({ ops: ['+'] });
    const run = async () => {
      const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 9);
      const seen: number[] = [];
      const points = await supervisedCeiling(
        model,
        family,
        {
          easy: 1,
          hard: 2,
          jumpAt: 0,
          keepFailed: 0,
          replayMax: 0,
          distill: 0,
          distillPrompts: 0,
          lrDecay: 0,
        },
        OPTS,
        (p) => seen.push(p.step),
      );
      return { points, seen };
    };
    const { points, seen } = await run();
    // Before any update, then every 40 updates and after the last.
    expect(points.map((p) => p.step)).toEqual([0, 40, 80, 120]);
    expect(seen).toEqual([0, 40, 80, 120]);
    // The ledger: every example's answer taught, 1- or 2-digit sums of up to 3 characters.
    expect(points[0].referenceChars).toBe(0);
    const taught = points.at(-1)!.referenceChars!;
    expect(taught).toBeGreaterThanOrEqual(120 * 16);
    expect(taught).toBeLessThanOrEqual(120 * 16 * 3);
    // Answers without working: what the teacher wrote is the reference, no more.
    expect(points.at(-1)!.teacherChars).toBe(taught);
    for (const p of points) {
      expect(p.hard).toBeGreaterThanOrEqual(0);
      expect(p.hard).toBeLessThanOrEqual(1);
      expect(p.easy).toBeGreaterThanOrEqual(0);
      expect(p.easy).toBeLessThanOrEqual(1);
    }
    // Supervised on 1- and 2-digit sums, a fresh policy learns the easy level from nothing.
    expect(points[0].easy).toBe(0);
    expect(points.at(-1)!.easy).toBeGreaterThan(0);
    expect((await run()).points).toEqual(points); // seeded: the same points again
  });

  it('measures as an experiment does after a jump: dense evals first, then every evalEvery', () => {
    const opts = { ...OPTS, steps: 50, evalEvery: 25, evalDenseEvery: 5, evalDenseSteps: 15 };
    const due = Array.from({ length: 51 }, (_, u) => u).filter((u) => ceilingEvalDue(opts, u));
    expect(due).toEqual([0, 5, 10, 15, 25, 50]);
  });
});
