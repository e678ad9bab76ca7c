import { describe, expect, it } from 'vitest';
import { median } from '../platform/median.ts';
import {
  binomialTwoSided,
  meanInterval,
  pairedRatioInterval,
  ratio,
  signTest,
} from './paired-stats.ts';

describe('paired statistics', () => {
  it('divides with never on either side', () => {
    expect(ratio(Infinity, 200)).toBe(Infinity);
    expect(ratio(200, Infinity)).toBe(0);
    expect(ratio(Infinity, Infinity)).toBe(1);
    expect(ratio(300, 200)).toBe(1.5);
  });

  it('gives the exact two-sided binomial p of a sign test', () => {
    expect(binomialTwoSided(10, 10)).toBeCloseTo(2 / 1024, 12);
    expect(binomialTwoSided(9, 10)).toBeCloseTo(22 / 1024, 12);
    expect(binomialTwoSided(1, 10)).toBeCloseTo(22 / 1024, 12);
    expect(binomialTwoSided(5, 10)).toBe(1);
    expect(binomialTwoSided(0, 0)).toBe(1);
    // 8 of 10: 2 × (1 + 10 + 45) / 1024.
    expect(binomialTwoSided(8, 10)).toBeCloseTo(112 / 1024, 12);
  });

  it('counts the seeds where the second was sooner, ties and never-against-never dropped', () => {
    const rival = [300, 250, Infinity, 200, Infinity, 100];
    const mentor = [200, 250, 400, 300, Infinity, 50];
    expect(signTest(rival, mentor)).toEqual({
      bLower: 3,
      differing: 4,
      p: binomialTwoSided(3, 4),
    });
  });

  it('puts a paired ratio inside its bootstrap interval, the same every time', () => {
    const mentor = [200, 175, 225, 250, 200, 150, 300, 200, 175, 225];
    const rival = mentor.map((m, i) => m + 25 + 25 * (i % 3));
    const ci = pairedRatioInterval(rival, mentor);
    expect(ci.value).toBeCloseTo(median(rival) / median(mentor), 12);
    expect(ci.lo).toBeLessThanOrEqual(ci.value);
    expect(ci.hi).toBeGreaterThanOrEqual(ci.value);
    // The rival is later on every seed: every resample's ratio is above 1.
    expect(ci.lo).toBeGreaterThan(1);
    expect(pairedRatioInterval(rival, mentor)).toEqual(ci);
    // A method against itself: no spread at all.
    expect(pairedRatioInterval(mentor, mentor)).toEqual({ value: 1, lo: 1, hi: 1 });
  });

  it('widens the interval with the spread of the pairs, and lets never through', () => {
    const mentor = [100, 100, 100, 100, 100, 100];
    const mixed = [50, 400, 60, 300, 80, 500];
    const ci = pairedRatioInterval(mixed, mentor);
    expect(ci.lo).toBeLessThan(1);
    expect(ci.hi).toBeGreaterThan(2);
    const never = pairedRatioInterval([Infinity, Infinity, Infinity, 100], [100, 100, 100, 100]);
    expect(never.value).toBe(Infinity);
    expect(never.hi).toBe(Infinity);
    expect(() => pairedRatioInterval([1, 2], [1])).toThrow(/paired values: 2 against 1/);
  });

  it('bootstraps a mean: no spread for equal values, inside the range otherwise', () => {
    expect(meanInterval([0.5, 0.5, 0.5])).toEqual({ value: 0.5, lo: 0.5, hi: 0.5 });
    const ci = meanInterval([0.7, 0.9, 0.8, 0.85, 0.75]);
    expect(ci.value).toBeCloseTo(0.8, 12);
    expect(ci.lo).toBeGreaterThanOrEqual(0.7);
    expect(ci.hi).toBeLessThanOrEqual(0.9);
    expect(ci.lo).toBeLessThan(ci.value);
    expect(ci.hi).toBeGreaterThan(ci.value);
  });
});
