import { describe, expect, it } from 'vitest';
import { parseMix } from './warmup-mix.ts';

const LEVELS = { min: 1, max: 8 };

describe('--mix', () => {
  it('reads levels, weights and hint rates', () => {
    expect(parseMix('1:1:0.3, 4:0.005:0.5', LEVELS)).toEqual([
      { level: 1, weight: 1, hintRate: 0.3 },
      { level: 4, weight: 0.005, hintRate: 0.5 },
    ]);
  });

  it.each([
    ['1:1', /"1:1" is not level:weight:hintRate/],
    ['9:1:0.3', /level 9 is not in 1–8/],
    ['2:0:0.3', /weight 0 of level 2 must be > 0/],
    ['2:1:1.5', /hint rate 1.5 of level 2 must be in \[0, 1\]/],
    ['2:1:x', /hint rate x/],
    ['2:1:0.3,2:1:0.3', /level 2 is given twice/],
  ])('refuses %s', (text, message) => {
    expect(() => parseMix(text, LEVELS)).toThrow(message);
  });
});
