import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAMILY_IDS, familyEntry, getFamily, verifyAnswer } from './registry.ts';
import { randomHint } from './hints.ts';
import { encodeSequence } from './prompt.ts';
import { createRng } from './rng.ts';
import { VOCAB } from './tokenizer.ts';

const levels = (id: (typeof FAMILY_IDS)[number]) => {
  const { min, max } = getFamily(id).levels;
  return Array.from({ length: max - min + 1 }, (_, i) => min + i);
};

describe.each(FAMILY_IDS)('family %s', (id) => {
  const family = getFamily(id);

  it('has at least levels 1..5 and validates levels with clear errors', () => {
    expect(family.levels.min).toBe(1);
    expect(family.levels.max).toBeGreaterThanOrEqual(id === 'arithmetic' ? 8 : 5);
    const rng = createRng(0);
    for (const bad of [0, family.levels.max + 1, 1.5, NaN]) {
      expect(() => family.sample(bad, rng)).toThrow(`${id}: level ${bad} is not an integer in 1..`);
      expect(() => family.maxTokens(bad)).toThrow(/is not an integer/);
    }
  });

  it.each(levels(id))('level %i: sampling is reproducible per seed', (level) => {
    const a = family.sample(level, createRng(31));
    expect(family.sample(level, createRng(31))).toEqual(a);
    expect(a.level).toBe(level);
    expect(a.family).toBe(id);
    const others = [32, 33, 34].map((s) => family.sample(level, createRng(s)).text);
    expect(others.some((t) => t !== a.text)).toBe(true);
  });

  it('the reference always scores 1, and sequences with any hint fit maxTokens', () => {
    fc.assert(
      fc.property(fc.constantFrom(...levels(id)), fc.integer(), (level, seed) => {
        const rng = createRng(seed);
        const p = family.sample(level, rng);
        expect(verifyAnswer(p, p.answer)).toEqual({
          reward: 1,
          feedback: { family: id, kind: 'correct' },
        });
        const seq = encodeSequence(p, p.answer, { hint: randomHint(p, rng) });
        expect(seq.tokens.length).toBeLessThanOrEqual(family.maxTokens(level));
      }),
      { numRuns: 150 },
    );
  });

  it('verify never throws and rewards only 0 or 1, whatever the string', () => {
    const problems = levels(id).map((l) => family.sample(l, createRng(l)));
    fc.assert(
      fc.property(
        fc.nat(problems.length - 1),
        fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom(...VOCAB) })),
        (i, answer) => {
          const v = verifyAnswer(problems[i], answer);
          expect([0, 1]).toContain(v.reward);
          expect(v.feedback.family).toBe(id);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('registry', () => {
  it('maps ids to families and names the known ones on a miss', () => {
    for (const id of FAMILY_IDS) expect(getFamily(id).id).toBe(id);
    for (const bad of ['chess', 'constructor', '__proto__', '']) {
      expect(() => getFamily(bad)).toThrow(
        `unknown task family ${JSON.stringify(bad)}; known: arithmetic, listlang`,
      );
    }
  });

  it.each(FAMILY_IDS)('%s: its entry trains on its own family inside its levels', (id) => {
    const entry = familyEntry(id);
    expect(entry.training.id).toBe(id);
    expect(entry.training.levels).toEqual(entry.family.levels);
    const { easy, hard, keepFailed, replayMax, distill } = entry.collapse;
    const { min, max } = entry.family.levels;
    expect(min <= easy && easy < hard && hard <= max).toBe(true);
    expect(keepFailed).toBeGreaterThanOrEqual(0);
    expect(replayMax >= 0 && replayMax <= 1).toBe(true);
    // Within the page's range for it (src/app/experiment-params.ts).
    expect(distill >= 0 && distill <= 2).toBe(true);
    expect(entry.describeLevel(hard)).toContain(String(hard));
  });
});
