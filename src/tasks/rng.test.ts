import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TaskError } from './errors.ts';
import { createRng } from './rng.ts';

const draws = (seed: number, n = 8) => {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => rng.u32());
};

describe('rng', () => {
  it('is reproducible per seed and differs between seeds', () => {
    expect(draws(7)).toEqual(draws(7));
    expect(draws(7)).not.toEqual(draws(8));
    expect(draws(-3)).not.toEqual(draws(3));
    expect(draws(2 ** 40)).not.toEqual(draws(0));
  });

  it('int stays in [lo, hi] and hits both ends', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: -1000, max: 1000 }), fc.nat(50), (s, lo, w) => {
        const rng = createRng(s);
        for (let i = 0; i < 20; i++) {
          const x = rng.int(lo, lo + w);
          expect(Number.isInteger(x) && x >= lo && x <= lo + w).toBe(true);
        }
      }),
    );
    const rng = createRng(1);
    const seen = new Set(Array.from({ length: 200 }, () => rng.int(3, 5)));
    expect([...seen].sort()).toEqual([3, 4, 5]);
  });

  it('is roughly uniform', () => {
    const rng = createRng(11);
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 20000; i++) counts[rng.int(0, 9)]++;
    for (const c of counts) expect(Math.abs(c - 2000)).toBeLessThan(200);
    let mean = 0;
    for (let i = 0; i < 10000; i++) mean += rng.float() / 10000;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.02);
  });

  it('forks by label: same label same stream, independent of draws made before', () => {
    const a = createRng(5);
    const b = createRng(5);
    b.u32();
    b.u32();
    const fa = a.fork('problems');
    const fb = b.fork('problems');
    expect([fa.u32(), fa.u32()]).toEqual([fb.u32(), fb.u32()]);
    expect(a.fork('problems').u32()).not.toBe(a.fork('hints').u32());
    expect(a.fork(1).u32()).not.toBe(a.fork(2).u32());
    expect(a.fork('x').fork('y').u32()).not.toBe(a.fork('y').fork('x').u32());
  });

  it('shuffles into a permutation without touching the input; pick and chance behave', () => {
    const rng = createRng(3);
    const xs = [1, 2, 3, 4, 5, 6];
    const ys = rng.shuffle(xs);
    expect(xs).toEqual([1, 2, 3, 4, 5, 6]);
    expect([...ys].sort()).toEqual(xs);
    expect(['a', 'b']).toContain(rng.pick(['a', 'b']));
    expect(Array.from({ length: 50 }, () => rng.chance(0)).some(Boolean)).toBe(false);
    expect(Array.from({ length: 50 }, () => rng.chance(1)).every(Boolean)).toBe(true);
  });

  it('rejects misuse with clear errors', () => {
    const rng = createRng(0);
    expect(() => createRng(1.5)).toThrow(TaskError);
    expect(() => rng.int(3, 2)).toThrow(/lo ≤ hi/);
    expect(() => rng.int(0, 2 ** 33)).toThrow(/wider than 2\^32/);
    expect(() => rng.pick([])).toThrow(/empty/);
    expect(() => rng.chance(1.5)).toThrow(/0 ≤ p ≤ 1/);
  });
});
