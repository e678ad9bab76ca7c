import { describe, expect, it } from 'vitest';
import { DEFAULT_INSTRUCTOR } from '../src/interventions/mentor/instructor.ts';
import { WARMUP_RECIPES } from '../src/rl/bases/recipes.ts';
import { parseLevelList, parseMix, resolveCritique } from './warmup-mix.ts';

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

describe('the shipped recipes', () => {
  // A base learns to read critiques marked as refinement marks them, within the instructor's cap.
  it("mark their critiques within the instructor's reveal cap, as --critique-share does", () => {
    const critiques = Object.values(WARMUP_RECIPES).flatMap((r) =>
      r.critique ? [r.critique] : [],
    );
    expect(critiques.length).toBeGreaterThan(0);
    for (const c of critiques) expect(c.maxReveal).toBe(DEFAULT_INSTRUCTOR.maxReveal);
  });
});

describe('the warm-up critique flags', () => {
  const recipe = { share: 0.2, maxReveal: 0.8, minMark: 1 };

  it("keep the recipe's critiques when none is given", () => {
    expect(resolveCritique(recipe, {}, 0.8)).toBe(recipe);
    expect(resolveCritique(undefined, {}, 0.8)).toBeUndefined();
  });

  it("override only their own field of the recipe's", () => {
    expect(resolveCritique(recipe, { share: 0.3 }, 0.8)).toEqual({ ...recipe, share: 0.3 });
    expect(resolveCritique(recipe, { share: 0 }, 0.8)).toEqual({ ...recipe, share: 0 });
    expect(resolveCritique(recipe, { minMark: 2 }, 0.8)).toEqual({ ...recipe, minMark: 2 });
    expect(resolveCritique(recipe, { levels: [1] }, 0.8)).toEqual({ ...recipe, levels: [1] });
  });

  it("mark within the cap given, whatever the recipe's", () => {
    expect(resolveCritique({ ...recipe, maxReveal: 0.6 }, { share: 0.5 }, 0.8)?.maxReveal).toBe(
      0.8,
    );
  });

  it('make critiques for a recipe without any from a share alone', () => {
    expect(resolveCritique(undefined, { share: 0.3 }, 0.8)).toEqual({ share: 0.3, maxReveal: 0.8 });
  });

  it('refuse to pick among critiques a recipe does not have', () => {
    expect(() => resolveCritique(undefined, { minMark: 1 }, 0.8)).toThrow(
      /--critique-min-mark picks among critiques and the recipe has none: give --critique-share too/,
    );
    expect(() => resolveCritique(undefined, { levels: [1] }, 0.8)).toThrow(
      /--critique-levels picks/,
    );
  });
});
