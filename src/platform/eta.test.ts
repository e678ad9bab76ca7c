import { describe, expect, it } from 'vitest';
import { etaSeconds, etaText } from './eta.ts';

describe('etaSeconds', () => {
  it('extrapolates the mean time a step over the steps left', () => {
    expect(etaSeconds(50, 200, 10)).toBeCloseTo(30);
    expect(etaSeconds(200, 200, 40)).toBe(0);
  });

  it('knows nothing before the first step', () => {
    expect(etaSeconds(0, 200, 3)).toBeNull();
  });
});

describe('etaText', () => {
  it('says seconds under 90 s and minutes above', () => {
    expect(etaText(42.4)).toBe('ETA 42 s');
    expect(etaText(12 * 60)).toBe('ETA 12 min');
    expect(etaText(null)).toBe('ETA –');
  });
});
