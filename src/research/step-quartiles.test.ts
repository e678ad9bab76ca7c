import { describe, expect, it } from 'vitest';
import { quantile, stepQuartiles } from './step-quartiles.ts';

describe('quantile', () => {
  it('interpolates between order statistics at rank (n - 1)·p (type 7)', () => {
    // Ranks 0.75, 1.5 and 2.25 of [1, 2, 4, 8]: as R's quantile(type = 7) and NumPy give.
    expect(quantile([1, 2, 4, 8], 0.25)).toBe(1.75);
    expect(quantile([1, 2, 4, 8], 0.5)).toBe(3);
    expect(quantile([1, 2, 4, 8], 0.75)).toBe(5);
    expect(quantile([1, 2, 4, 8], 0)).toBe(1);
    expect(quantile([1, 2, 4, 8], 1)).toBe(8);
    expect(quantile([5], 0.25)).toBe(5);
    expect(() => quantile([], 0.5)).toThrow(/no values/);
  });
});

describe('stepQuartiles', () => {
  it('takes the quartiles over runs at every step any run has, in step order', () => {
    const runs: [number, number][][] = [
      [
        [10, 1],
        [0, 0],
      ],
      [
        [0, 1],
        [10, 0.25],
      ],
      [
        [0, 0.5],
        [10, 0.5],
        [20, 0.9],
      ],
      [
        [0, 0.25],
        [10, 0.75],
      ],
    ];
    expect(stepQuartiles(runs)).toEqual([
      // 0, 0.25, 0.5, 1: ranks 0.75, 1.5, 2.25.
      { step: 0, q1: 0.1875, median: 0.375, q3: 0.625, runs: 4 },
      // 0.25, 0.5, 0.75, 1 (values and quartiles exact in binary, so toEqual can be exact).
      { step: 10, q1: 0.4375, median: 0.625, q3: 0.8125, runs: 4 },
      { step: 20, q1: 0.9, median: 0.9, q3: 0.9, runs: 1 },
    ]);
  });
});
