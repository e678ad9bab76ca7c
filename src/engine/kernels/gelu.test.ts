import { describe, expect, it } from 'vitest';
import { geluGrad, geluValue } from './gelu.ts';

// The tanh formula written with Math.tanh, as the WGSL writes it.
const SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);
const COEF = 0.044715;
const inner = (x: number) => Math.min(15, Math.max(-15, SQRT_2_OVER_PI * (x + COEF * x * x * x)));
const value = (x: number) => 0.5 * x * (1 + Math.tanh(inner(x)));
function grad(x: number): number {
  const t = Math.tanh(inner(x));
  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * SQRT_2_OVER_PI * (1 + 3 * COEF * x * x);
}

describe('GELU twin', () => {
  it('agrees with the Math.tanh formula to float64 rounding, and exactly in float32', () => {
    const f32 = Math.fround;
    // Differences in the last bit of t, which 1 − t² and the x³ factor magnify (to ~1e-12 at
    // the clamp, |x| = 40): far below float32's resolution.
    const close = (got: number, want: number) =>
      Math.abs(got - want) <= 1e-11 * Math.max(1, Math.abs(want)) && f32(got) === f32(want);
    const bad: string[] = [];
    for (let i = -40_000; i <= 40_000; i++) {
      const x = f32(i / 1000 + i * 1e-7);
      if (!close(geluValue(x), value(x))) bad.push(`gelu(${x})`);
      if (!close(geluGrad(x), grad(x))) bad.push(`gelu'(${x})`);
    }
    expect(bad).toEqual([]);
  });
});
