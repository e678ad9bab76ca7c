import { describe, expect, it } from 'vitest';
import { median } from './median.ts';

describe('median', () => {
  it('takes medians with never as infinite, of an even count the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([1, Infinity])).toBe(Infinity);
    expect(median([Infinity, 5, 1])).toBe(5);
    expect(median([])).toBeNaN();
  });
});
