import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arithmeticProblem } from './arithmetic/family.ts';
import { critiqueHolds, critiqueOf, rightPrefix } from './critique.ts';
import { hintHolds, hintStrength, parseHint, renderHint, revealedFraction } from './hints.ts';
import { listlangProblem } from './listlang/family.ts';
import { workedProblem } from './worked/family.ts';
import { FAMILY_IDS, getFamily, verifyAnswer } from './registry.ts';
import { createRng } from './rng.ts';
import { encode } from './tokenizer.ts';

const add = arithmeticProblem('+', '472', '389'); // answer 168
const prog = listlangProblem('isl', ['59898', '31909', '10184', '31181', '87032']);

describe('critique hints', () => {
  it('quote the attempt and mark its first wrong character', () => {
    const c = critiqueOf(add, '178', 0.8);
    expect(c).toEqual({ kind: 'critique', attempt: '178', wrongAt: 1 });
    expect(renderHint(c!)).toBe('x1_78');
    expect(renderHint(critiqueOf(add, '16', 0.8)!)).toBe('x16_'); // right so far, stopped short
    expect(renderHint(critiqueOf(add, '', 0.8)!)).toBe('x_');
    expect(renderHint(critiqueOf(add, '9', 0.8)!)).toBe('x_9');
    expect(critiqueOf(add, '168', 0.8)).toBeNull(); // nothing to criticise
    expect(critiqueOf(add, '1|8', 0.8)).toBeNull(); // the slot cannot quote a marker
  });

  it('say only "wrong" where the mark would give away more than the cap', () => {
    // 1689 starts with the whole answer: marking its 4th character would state all of it.
    expect(critiqueOf(add, '1689', 0.8)).toEqual({
      kind: 'critique',
      attempt: '1689',
      wrongAt: null,
    });
    // 16 right of 3 is 2/3: over a cap of a half, under one of 0.8.
    expect(critiqueOf(add, '160', 0.5)?.wrongAt).toBeNull();
    expect(critiqueOf(add, '160', 0.8)?.wrongAt).toBe(2);
    expect(critiqueOf(add, '', 0)).toEqual({ kind: 'critique', attempt: '', wrongAt: 0 });
  });

  it('measure a program against every known correct one, and mark an unknown op', () => {
    // oe and eo are both right here: starting with e is not a mistake.
    const twoWays = listlangProblem('oe', ['76678', '97483', '55832', '90479', '39105']);
    expect(twoWays.data.references).toEqual(['oe', 'eo']);
    expect(rightPrefix(twoWays, 'ee')).toBe(1);
    expect(critiqueOf(twoWays, 'ee', 0.8)).toMatchObject({ wrongAt: 1 });
    expect(critiqueOf(prog, 'isz', 0.8)).toEqual({ kind: 'critique', attempt: 'isz', wrongAt: 2 });
    expect(verifyAnswer(prog, 'isz').feedback).toMatchObject({ kind: 'unknown-op', column: 2 });
  });

  it('mark the first broken step of working, read from the problem, and state none of the answer', () => {
    const p = workedProblem('47', 6); // 24,82>282
    // Column 2 (4 × 6 + 2 = 26) is wrong: the mark is at its start.
    const c = critiqueOf(p, '24,83>283', 0.3);
    expect(c).toEqual({ kind: 'critique', attempt: '24,83>283', wrongAt: 3 });
    expect(revealedFraction(p, c!)).toBe(0);
    // Right working, a product it does not give: the product is the broken step, and marking it
    // states none of it, at any cap.
    expect(critiqueOf(p, '24,82>283', 0)).toMatchObject({ wrongAt: 6 });
    expect(revealedFraction(p, { kind: 'critique', attempt: '24,82>283', wrongAt: 6 })).toBe(0);
    // Too long for the slot: quoted up to the end of its first broken column.
    const q = workedProblem('47281', 6); // 60,84,61,34,82>283686
    const long = critiqueOf(q, '60,84,21,34,82>284686', 0.8);
    expect(long).toEqual({ kind: 'critique', attempt: '60,84,21', wrongAt: 6 });
    expect(hintHolds(q, long!)).toBe(true);
    // Four columns and the end mark: the mark where the fifth column should begin.
    expect(critiqueOf(q, '60,84,61,34>3416', 0.8)).toEqual({
      kind: 'critique',
      attempt: '60,84,61,34>',
      wrongAt: 11,
    });
    expect(critiqueOf(q, '60,84,61,34,82>283680', 0.8)).toEqual({
      kind: 'critique',
      attempt: '60,84,61,34,82>',
      wrongAt: 15,
    });
  });

  it('parse back, and reject malformed ones with a reason', () => {
    for (const text of ['x1_78', 'x178', 'x_', 'x16_']) {
      const r = parseHint('arithmetic', text);
      expect(r.ok && renderHint(r.hint)).toBe(text);
    }
    expect(parseHint('listlang', 'xis_z')).toEqual({
      ok: true,
      hint: { kind: 'critique', attempt: 'isz', wrongAt: 2 },
    });
    const reason = (text: string) => {
      const r = parseHint('arithmetic', text);
      return r.ok ? 'accepted' : r.reason;
    };
    expect(reason('x')).toMatch(/nothing after "x"/);
    expect(reason('x1_7_8')).toMatch(/more than one _/);
    expect(reason('x1.8')).toMatch(/"\." at 2/);
  });

  it('is true of the attempt it criticises, parses, and never states more than the cap', () => {
    const cases = FAMILY_IDS.flatMap((id) => {
      const family = getFamily(id);
      const rng = createRng(7);
      return Array.from({ length: 30 }, (_, i) =>
        family.sample(family.levels.min + (i % (family.levels.max - family.levels.min + 1)), rng),
      );
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...cases),
        fc.nat(8),
        fc.string({ unit: fc.constantFrom(...'0123456789abcdeilrsz'), maxLength: 4 }),
        fc.constantFrom(0, 0.3, 0.5, 0.8),
        (problem, cut, tail, cap) => {
          // Near misses: a piece of the reference, then anything.
          const attempt = problem.answer.slice(0, cut) + tail;
          const c = critiqueOf(problem, attempt, cap);
          if (verifyAnswer(problem, attempt).reward > 0) {
            expect(c).toBeNull();
            return;
          }
          expect(c).not.toBeNull();
          if (!c) return;
          expect(c.attempt).toBe(attempt);
          expect(critiqueHolds(problem, c)).toBe(true);
          expect(hintHolds(problem, c)).toBe(true);
          expect(revealedFraction(problem, c)).toBeLessThanOrEqual(cap);
          expect(hintStrength(problem, c)).toBeGreaterThanOrEqual(1);
          const text = renderHint(c);
          expect(() => encode(text)).not.toThrow();
          expect(text).not.toMatch(/[|=]/);
          expect(parseHint(problem.family, text)).toEqual({ ok: true, hint: c });
        },
      ),
    );
  });

  it('is false when its attempt is right or its mark is elsewhere', () => {
    expect(critiqueHolds(add, { kind: 'critique', attempt: '168', wrongAt: null })).toBe(false);
    expect(critiqueHolds(add, { kind: 'critique', attempt: '178', wrongAt: 2 })).toBe(false);
    expect(critiqueHolds(add, { kind: 'critique', attempt: '178', wrongAt: 1 })).toBe(true);
  });
});
