import { describe, expect, it } from 'vitest';
import { grpoLearningRate, warmupCosine } from './lr-schedule.ts';
import { bandit, config } from './testing/bandit.ts';
import { testTrainer } from './testing/trainer-probes.ts';
import type { GrpoConfig } from './config.ts';

describe('learning-rate schedules', () => {
  it('warms up linearly, then falls by a cosine to a tenth (the warm-up recipes)', () => {
    expect(warmupCosine(0, 100, 1, 10)).toBeCloseTo(0.1, 12);
    expect(warmupCosine(9, 100, 1, 10)).toBeCloseTo(1, 12);
    expect(warmupCosine(55, 100, 1, 10)).toBeCloseTo(0.55, 12);
    expect(warmupCosine(100, 100, 2, 10)).toBeCloseTo(0.2, 12);
    expect(warmupCosine(500, 100, 2, 10)).toBeCloseTo(0.2, 12);
  });

  it('keeps the GRPO rate after its warm-up, and anneals it to a tenth between the steps lrDecay names', () => {
    const flat = { lr: 1e-3, lrWarmupSteps: 4, lrDecay: null };
    expect([0, 1, 3, 4, 10_000].map((s) => grpoLearningRate(flat, s))).toEqual([
      2.5e-4, 5e-4, 1e-3, 1e-3, 1e-3,
    ]);
    const annealed = { ...flat, lrDecay: { from: 700, to: 1000 } };
    expect(grpoLearningRate(annealed, 2)).toBeCloseTo(7.5e-4, 15);
    expect(grpoLearningRate(annealed, 700)).toBeCloseTo(1e-3, 15);
    expect(grpoLearningRate(annealed, 850)).toBeCloseTo(5.5e-4, 15);
    expect(grpoLearningRate(annealed, 999)).toBeGreaterThan(1e-4);
    expect(grpoLearningRate(annealed, 1000)).toBeCloseTo(1e-4, 15);
    expect(grpoLearningRate(annealed, 5000)).toBeCloseTo(1e-4, 15);
    // It falls all the way, never rising on the way down.
    const rates = Array.from({ length: 400 }, (_, i) => grpoLearningRate(annealed, 650 + i));
    expect(rates.every((r, i) => i === 0 || r <= rates[i - 1])).toBe(true);
  });

  it('is the rate the trainer updates at: a step under a tenth of the rate moves the weights a tenth as far', async () => {
    const c = config({ prompts: 8, groupSize: 8, lr: 1e-3, lrWarmupSteps: 1, evalEvery: 1000 });
    // Two runs from one policy on one seed: step 0 at the full rate in both, step 1 at a tenth in one.
    const weightsAfterTwoSteps = async (lrDecay: GrpoConfig['lrDecay']) => {
      const trainer = testTrainer(bandit, { ...c, lrDecay });
      const { model } = trainer;
      const m0 = await trainer.trainStep();
      const mid = await model.params.toTensors();
      const m1 = await trainer.trainStep();
      expect([m0.grad_norm, m1.grad_norm]).not.toContain(null);
      return { mid, end: await model.params.toTensors() };
    };
    const plain = await weightsAfterTwoSteps(null);
    const annealed = await weightsAfterTwoSteps({ from: 0, to: 1 });
    let moved = 0;
    plain.mid.forEach((t, i) => {
      expect(annealed.mid[i].data).toEqual(t.data);
      t.data.forEach((w, j) => {
        const full = plain.end[i].data[j] - w;
        const tenth = annealed.end[i].data[j] - w;
        if (Math.abs(full) < 1e-6) return;
        moved++;
        expect(tenth / full).toBeCloseTo(0.1, 2);
      });
    });
    expect(moved).toBeGreaterThan(100);
  });

  it('refuses a fall that does not run forward between whole steps', () => {
    for (const lrDecay of [
      { from: 10, to: 10 },
      { from: 10, to: 5 },
      { from: -1, to: 5 },
      { from: 0.5, to: 5 },
    ])
      expect(() => testTrainer(bandit, config({ lrDecay }))).toThrow(
        /lrDecay must fall between whole steps/,
      );
  });
});
