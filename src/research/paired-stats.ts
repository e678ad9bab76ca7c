// The protocol's statistics (docs/protocol.md) over per-seed values of two methods run on the same
// seeds: medians where a run that never reached a threshold counts as Infinity, paired bootstrap
// intervals of a ratio of medians, a paired sign test, and bootstrap intervals of a mean.
import { median } from '../platform/median.ts';
import { createRng, type Rng } from '../tasks/index.ts';

/** Resamples per bootstrap interval, and the seed of their draws (the same runs, the same CI). */
export const BOOTSTRAP_RESAMPLES = 10_000;
export const BOOTSTRAP_SEED = 1;

export function meanOf(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
}

/** a ÷ b where either may be never: ∞ ÷ finite = ∞, finite ÷ ∞ = 0, never ÷ never = 1 (a tie). */
export function ratio(a: number, b: number): number {
  if (a === Infinity && b === Infinity) return 1;
  return a / b;
}

export interface Interval {
  value: number;
  lo: number;
  hi: number;
}

/** The 2.5th and 97.5th percentiles of `xs` by rank (no interpolation: values may be ∞). */
function percentileInterval(value: number, xs: number[]): Interval {
  const s = xs.sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))];
  return { value, lo: at(0.025), hi: at(0.975) };
}

/** Indices 0 … n − 1 drawn n times with replacement. */
function resample(n: number, rng: Rng): number[] {
  return Array.from({ length: n }, () => rng.int(0, n - 1));
}

/**
 * median(a) ÷ median(b) with its paired bootstrap 95% interval: each resample draws seeds with
 * replacement and takes both methods' values on those seeds. `a[i]` and `b[i]` share a seed.
 */
export function pairedRatioInterval(
  a: readonly number[],
  b: readonly number[],
  resamples = BOOTSTRAP_RESAMPLES,
): Interval {
  if (a.length !== b.length || a.length === 0)
    throw new RangeError(`paired values: ${a.length} against ${b.length}`);
  const rng = createRng(BOOTSTRAP_SEED);
  const draws = Array.from({ length: resamples }, () => {
    const idx = resample(a.length, rng);
    return ratio(median(idx.map((i) => a[i])), median(idx.map((i) => b[i])));
  });
  return percentileInterval(ratio(median(a), median(b)), draws);
}

/** The mean of `xs` with its bootstrap 95% interval. */
export function meanInterval(xs: readonly number[], resamples = BOOTSTRAP_RESAMPLES): Interval {
  if (xs.length === 0) return { value: NaN, lo: NaN, hi: NaN };
  const rng = createRng(BOOTSTRAP_SEED);
  const draws = Array.from({ length: resamples }, () =>
    meanOf(resample(xs.length, rng).map((i) => xs[i])),
  );
  return percentileInterval(meanOf(xs), draws);
}

export interface SignTest {
  /** Seeds where `b` was lower (sooner), and seeds with any difference. */
  bLower: number;
  differing: number;
  /** Two-sided exact binomial p of so uneven a split under no difference; 1 with none. */
  p: number;
}

/** The paired sign test of `a` against `b`: ties (never against never included) dropped. */
export function signTest(a: readonly number[], b: readonly number[]): SignTest {
  if (a.length !== b.length) throw new RangeError(`paired values: ${a.length} against ${b.length}`);
  let bLower = 0;
  let differing = 0;
  a.forEach((x, i) => {
    if (x === b[i]) return;
    differing++;
    if (b[i] < x) bLower++;
  });
  return { bLower, differing, p: binomialTwoSided(bLower, differing) };
}

/** P(a split at least as uneven as k of n) for a fair coin, both tails, at most 1. */
export function binomialTwoSided(k: number, n: number): number {
  if (n === 0) return 1;
  const pmf = (i: number) => Math.exp(logChoose(n, i) - n * Math.LN2);
  const tail = (from: number, to: number) => {
    let s = 0;
    for (let i = from; i <= to; i++) s += pmf(i);
    return s;
  };
  const low = Math.min(k, n - k);
  return Math.min(1, 2 * tail(0, low));
}

function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log((n - k + i) / i);
  return s;
}
