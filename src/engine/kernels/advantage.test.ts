import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu/cpu-backend.ts';
import { groupNormalize } from './advantage.ts';

describe('group-relative advantages (CPU twin)', () => {
  it('gives exactly zero, never NaN, for all-equal groups, and standardises the rest', async () => {
    const be = new CpuBackend();
    const r = be.alloc(12);
    const adv = be.alloc(12);
    be.write(r, new Float32Array([0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0]));
    groupNormalize(be, adv, r, { groups: 3, size: 4, scaleByStd: true });
    const a = await be.read(adv);
    expect([...a.slice(0, 8)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(a.every(Number.isFinite)).toBe(true);
    // Rewards [1,0,0,0]: mean 0.25, unbiased std 0.5 → 1.5 and −0.5 (ε = 1e-4).
    expect(a[8]).toBeCloseTo(0.75 / (0.5 + 1e-4), 5);
    expect(a[9]).toBeCloseTo(-0.25 / (0.5 + 1e-4), 5);
    groupNormalize(be, adv, r, { groups: 3, size: 4, scaleByStd: false });
    expect([...(await be.read(adv)).slice(8)]).toEqual([0.75, -0.25, -0.25, -0.25]);
  });
});
