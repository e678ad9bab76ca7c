import { describe, expect, it } from 'vitest';
import { parseLevelList, parseMix } from './warmup-mix.ts';

const ARITHMETIC = { id: 'arithmetic', levels: { min: 1, max: 8 } } as const;
const LISTLANG = { id: 'listlang', levels: { min: 1, max: 5 } } as const;

describe('--mix', () => {
  it('reads levels, weights, hint rates and operations', () => {
    expect(parseMix('1:1:0.3, 4:0.005:0.5,4:0.01:0.3:*', ARITHMETIC)).toEqual([
      { level: 1, weight: 1, hintRate: 0.3 },
      { level: 4, weight: 0.005, hintRate: 0.5 },
      { level: 4, weight: 0.01, hintRate: 0.3, op: '*' },
    ]);
  });

  it.each([
    ['1:1', /"1:1" is not level:weight:hintRate\[:op\]/],
    ['1:1:0.3:*:x', /is not level:weight:hintRate/],
    ['9:1:0.3', /level 9 is not in 1–8/],
    ['2:0:0.3', /weight 0 of level 2 must be > 0/],
    ['2:1:1.5', /hint rate 1.5 of level 2 must be in \[0, 1\]/],
    ['2:1:x', /hint rate x/],
    ['2:1:0.3,2:1:0.3', /level 2 is given twice/],
    ['2:1:0.3:*,2:1:0.3:*', /level 2\* is given twice/],
    ['2:1:0.3:/', /operation "\/" is not one of \+ - \*/],
  ])('refuses %s', (text, message) => {
    expect(() => parseMix(text, ARITHMETIC)).toThrow(message);
  });

  it('refuses an operation outside arithmetic', () => {
    expect(() => parseMix('2:1:0.3:*', LISTLANG)).toThrow(/needs --task arithmetic/);
  });
});

describe('a level list', () => {
  it('reads levels inside the range', () => {
    expect(parseLevelList('1', LISTLANG.levels)).toEqual([1]);
    expect(parseLevelList(' 1, 3', LISTLANG.levels)).toEqual([1, 3]);
  });

  it.each([
    ['0', /"0" is not a level in 1–5/],
    ['6', /"6" is not a level in 1–5/],
    ['1.5', /"1.5" is not a level/],
    ['1,', /"" is not a level/],
    ['2,2', /"2,2" gives a level twice/],
  ])('refuses %s', (text, message) => {
    expect(() => parseLevelList(text, LISTLANG.levels)).toThrow(message);
  });
});
