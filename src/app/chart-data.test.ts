import { describe, expect, it } from 'vitest';
import {
  CHART_METRICS,
  chartColumns,
  latestValue,
  levelBreaks,
  levelChanges,
} from './chart-data.ts';
import { fakeStep } from './testing/fake-metrics.ts';

describe('chart columns', () => {
  it('aligns both lanes on one step axis with gaps as null', () => {
    const a = [fakeStep(0), fakeStep(1), fakeStep(2)];
    const b = [fakeStep(0, { reward: 0.1 }), fakeStep(1, { reward: 0.2 })];
    const c = chartColumns(
      [a, b],
      [
        { lane: 0, metric: 'reward' },
        { lane: 1, metric: 'reward' },
      ],
    );
    expect(c.x).toEqual([0, 1, 2]);
    expect(c.ys).toEqual([
      [0.5, 0.5, 0.5],
      [0.1, 0.2, null],
    ]);
  });

  it('eval accuracy exists on eval steps only', () => {
    const a = [fakeStep(0), fakeStep(1, { eval_accuracy: 0.25 }), fakeStep(2)];
    const c = chartColumns([a], [{ lane: 0, metric: 'eval_accuracy' }]);
    expect(c.ys[0]).toEqual([null, 0.25, null]);
    expect(latestValue(a, 'eval_accuracy')).toEqual({ step: 1, value: 0.25 });
    expect(latestValue(a, 'eval_accuracy_prev')).toBeNull();
  });

  it('offers every numeric metric, KL, gradient norm, replay and distillation included', () => {
    expect(CHART_METRICS).toEqual(
      expect.arrayContaining(['kl', 'grad_norm', 'replay_reward', 'replay_share', 'distilled']),
    );
    expect(CHART_METRICS).not.toContain('step');
    expect(CHART_METRICS).not.toContain('method');
    const a = [fakeStep(0), fakeStep(1, { kl: 0.02, distill_weight: 0.1 })];
    expect(chartColumns([a], [{ lane: 0, metric: 'kl' }]).ys[0]).toEqual([null, 0.02]);
    expect(latestValue(a, 'distill_weight')).toEqual({ step: 1, value: 0.1 });
  });

  it('downsamples long runs to at most 1000 points', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => fakeStep(i, { reward: i === 777 ? 1 : 0 }));
    const c = chartColumns(
      [a, a],
      [
        { lane: 0, metric: 'reward' },
        { lane: 1, metric: 'reward' },
      ],
    );
    expect(c.x.length).toBeLessThanOrEqual(1000);
    expect(Math.max(...(c.ys[0] as number[]))).toBe(1);
  });

  it('finds the steps where the level changed', () => {
    const a = [
      fakeStep(0),
      fakeStep(1),
      fakeStep(2, { level: 4 }),
      fakeStep(3, { level: 4 }),
      fakeStep(4, { level: 2 }),
    ];
    expect(levelChanges(a)).toEqual([
      { step: 2, level: 4 },
      { step: 4, level: 2 },
    ]);
  });

  it('breaks the eval line between its last point on one level and its first on the next', () => {
    // Evals at 0 and 25 on level 3; the jump at step 30; the next eval at 50, on level 4.
    const a = Array.from({ length: 60 }, (_, i) =>
      fakeStep(i, {
        level: i < 30 ? 3 : 4,
        ...(i % 25 === 0 ? { eval_accuracy: i < 30 ? 1 : 0 } : {}),
      }),
    );
    const c = chartColumns(
      [a],
      [
        { lane: 0, metric: 'eval_accuracy' },
        { lane: 0, metric: 'reward' },
      ],
    );
    expect(c.breaks[0]).toEqual([[25, 50]]);
    // A series drawn every step breaks across the one step of the change.
    expect(c.breaks[1]).toEqual([[29, 30]]);
  });

  it('joins points on one level, and skips steps a lane has not run', () => {
    const levels = new Map([
      [0, 3],
      [1, 3],
      [2, 4],
    ]);
    expect(levelBreaks([0, 1, 2], [0.5, null, 0.25], levels)).toEqual([[0, 2]]);
    expect(levelBreaks([0, 1], [0.5, 0.25], levels)).toEqual([]);
    expect(levelBreaks([0, 1, 2, 3], [0.5, 0.4, null, 0.25], levels)).toEqual([]);
    expect(levelBreaks([0, 1], [0.5, 0.25], undefined)).toEqual([]);
  });
});
