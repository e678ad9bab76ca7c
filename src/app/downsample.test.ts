import { describe, expect, it } from 'vitest';
import { downsampleMinMax } from './downsample.ts';

describe('downsampleMinMax', () => {
  it('returns short series unchanged', () => {
    const data = { x: [0, 1, 2], ys: [[1, null, 3]] };
    expect(downsampleMinMax(data, 10)).toBe(data);
  });

  it('keeps at most maxPoints points, x sorted, ends kept', () => {
    const n = 10_000;
    const x = Array.from({ length: n }, (_, i) => i);
    const y = x.map((i) => Math.sin(i / 50));
    const d = downsampleMinMax({ x, ys: [y] }, 1000);
    expect(d.x.length).toBeLessThanOrEqual(1000);
    expect(d.ys[0].length).toBe(d.x.length);
    expect(d.x[0]).toBe(0);
    expect(d.x[d.x.length - 1]).toBe(n - 1);
    for (let i = 1; i < d.x.length; i++) expect(d.x[i]).toBeGreaterThanOrEqual(d.x[i - 1]);
  });

  it('preserves single spikes and dips, in the order they happened', () => {
    const n = 5000;
    const x = Array.from({ length: n }, (_, i) => i);
    const y = x.map(() => 0.5);
    y[1234] = 1;
    y[3210] = 0;
    const d = downsampleMinMax({ x, ys: [y] }, 100);
    const ys = d.ys[0] as number[];
    expect(Math.max(...ys)).toBe(1);
    expect(Math.min(...ys)).toBe(0);
    // Inside one bucket a max that came first is written first.
    const z = x.map(() => 0.5);
    z[10] = 0.9;
    z[20] = 0.1;
    const e = downsampleMinMax({ x, ys: [z] }, 100);
    expect(e.ys[0].slice(0, 2)).toEqual([0.9, 0.1]);
  });

  it('handles gaps: sparse series stay sparse, empty buckets are null', () => {
    const n = 4000;
    const x = Array.from({ length: n }, (_, i) => i);
    const evals = x.map((i) => (i % 500 === 499 ? i / n : null));
    const d = downsampleMinMax({ x, ys: [evals, x.map(() => 1)] }, 400);
    const kept = d.ys[0].filter((v) => v !== null);
    expect(kept.length).toBeGreaterThanOrEqual(8);
    expect(d.ys[0].some((v) => v === null)).toBe(true);
    expect(d.ys[1].every((v) => v === 1)).toBe(true);
  });
});
