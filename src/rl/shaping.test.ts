import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpu-backend.ts';
import { offPolicyShape } from './shaping.ts';
import { shapedGradientProblems } from './testing/shaped-gradient.ts';

describe('the shaped loss of off-policy tokens', () => {
  it('is f(p) = p/(p + γ), and its weight is γp/(p + γ)² (its derivative in log p)', () => {
    for (const p of [1e-6, 0.01, 0.1, 0.5, 0.99]) {
      const { value, weight } = offPolicyShape(Math.log(p), 0.1);
      expect(value).toBeCloseTo(p / (p + 0.1), 12);
      const h = 1e-6;
      const numeric =
        (offPolicyShape(Math.log(p) + h, 0.1).value - offPolicyShape(Math.log(p) - h, 0.1).value) /
        (2 * h);
      expect(weight).toBeCloseTo(numeric, 8);
    }
    // An unlikely token still teaches (log p would scale its gradient by 1/p instead).
    expect(offPolicyShape(Math.log(0.01), 0.1).weight).toBeGreaterThan(0.08);
  });

  it('through the model, matches finite differences of the loss (CPU twin)', async () => {
    expect(await shapedGradientProblems(new CpuBackend())).toEqual([]);
  });
});
