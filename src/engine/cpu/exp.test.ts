import { describe, expect, it } from 'vitest';
import { uniforms } from '../random.ts';
import { exp } from './exp.ts';

/** Distance in units in the last place between two doubles of the same sign. */
function ulps(a: number, b: number): number {
  const f = new Float64Array([a, b]);
  const i = new BigInt64Array(f.buffer);
  const d = i[0] - i[1];
  return Number(d < 0n ? -d : d);
}

describe('exp', () => {
  it('is within 1 ulp of Math.exp from tiny arguments to the ends of its range', () => {
    for (const [seed, scale] of [
      [1, 745],
      [2, 40],
      [3, 1],
      [4, 1e-3],
      [5, 1e-9],
    ]) {
      let worst = 0;
      for (const x of uniforms(seed, 50_000, -scale, scale))
        worst = Math.max(worst, ulps(exp(x), Math.exp(x)));
      expect(worst, `|x| ≤ ${scale}`).toBeLessThanOrEqual(1);
    }
  });

  it('matches Math.exp at the edges and on special values', () => {
    for (const x of [0, -0, 1, -1, 708.9, 709, 709.5, 710, -708, -708.5, -745.2, -746]) {
      expect(ulps(exp(x), Math.exp(x)), `x = ${x}`).toBeLessThanOrEqual(1);
    }
    expect(exp(Infinity)).toBe(Infinity);
    expect(exp(-Infinity)).toBe(0);
    expect(exp(NaN)).toBeNaN();
  });
});
