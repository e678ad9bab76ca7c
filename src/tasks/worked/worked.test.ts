import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TaskError } from '../errors.ts';
import { hintHolds, makeHint, parseHint, renderHint } from '../hints.ts';
import { ownSolution } from '../teacher-solution.ts';
import { createRng } from '../rng.ts';
import { worked, workedProblem } from './family.ts';
import {
  brokenStep,
  checkWorking,
  columnsOf,
  describeCause,
  finalAnswerOf,
  productOf,
  workedSolution,
} from './working.ts';

const multiplicand = fc
  .tuple(fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 6 }))
  .map(([first, rest]) => [first, ...rest].join(''));
const problems = fc
  .tuple(multiplicand, fc.integer({ min: 2, max: 9 }))
  .map(([a, m]) => workedProblem(a, m));

describe('worked: the problem and its solutions', () => {
  it('reads as people write it; the reference is the product alone', () => {
    const p = workedProblem('4728', 6);
    expect(p).toMatchObject({ text: '4728*6', answer: '28368', level: 4, family: 'worked' });
    expect(columnsOf(p.data)).toEqual([
      { digit: 8, carryIn: 0, value: 48 },
      { digit: 2, carryIn: 4, value: 16 },
      { digit: 7, carryIn: 1, value: 43 },
      { digit: 4, carryIn: 4, value: 28 },
    ]);
    expect(workedSolution(p.data)).toBe('84,61,34,82>28368');
    expect(workedSolution(p.data, 'other')).toBe('48,16,43,28>28368');
    expect(ownSolution(p)).toBe('84,61,34,82>28368');
    expect(workedSolution(workedProblem('12', 3).data)).toBe('60,30>36');
  });

  it('computes the product for any problem', () => {
    fc.assert(
      fc.property(problems, (p) => {
        expect(BigInt(productOf(p.data))).toBe(BigInt(p.data.a) * BigInt(p.data.multiplier));
      }),
    );
  });

  it('refuses what is not a problem, and samples each level as it says', () => {
    expect(() => workedProblem('0472', 6)).toThrow(TaskError);
    expect(() => workedProblem('47', 1)).toThrow(TaskError);
    expect(() => workedProblem('47', 10)).toThrow(TaskError);
    expect(() => workedProblem('12345678', 2)).toThrow(TaskError);
    const rng = createRng(3);
    for (let level = 1; level <= 7; level++) {
      for (let i = 0; i < 20; i++) {
        const p = worked.sample(level, rng);
        expect(p.data.a).toHaveLength(level);
        // The longest sequence fits the family's own bound, hint slot at its fullest.
        expect(1 + 1 + 18 + 1 + p.text.length + 1 + ownSolution(p).length + 1).toBeLessThanOrEqual(
          worked.maxTokens(level),
        );
      }
    }
  });
});

describe('worked: the verifier rewards the final answer only', () => {
  it('scores the product after the last ">", whatever the working', () => {
    const p = workedProblem('4728', 6);
    expect(worked.verify(p, '84,61,34,82>28368').reward).toBe(1);
    expect(worked.verify(p, '>28368').reward).toBe(1);
    expect(worked.verify(p, '99,99>28368').reward).toBe(1);
    expect(worked.verify(p, '28368').reward).toBe(1);
    expect(worked.verify(p, '84,61,34,82>28369')).toMatchObject({
      reward: 0,
      feedback: { kind: 'wrong', final: '28369', check: { kind: 'copy', at: 12 } },
    });
    expect(worked.verify(p, '').reward).toBe(0);
    expect(finalAnswerOf('1>2>3')).toBe('3');
  });

  it('never throws, whatever the string', () => {
    fc.assert(
      fc.property(problems, fc.string({ unit: fc.constantFrom(...'0123456789,>x') }), (p, s) => {
        const v = worked.verify(p, s);
        expect(v.reward === 1).toBe(finalAnswerOf(s) === p.answer);
      }),
    );
  });
});

describe('worked: the working is checked step by step against the problem', () => {
  it('finds nothing wrong in the own solution, and reads the other notation as swapped', () => {
    fc.assert(
      fc.property(problems, (p) => {
        expect(checkWorking(p.data, workedSolution(p.data))).toEqual({ kind: 'none' });
        const other = checkWorking(p.data, workedSolution(p.data, 'other'));
        // A column whose digit and carry are equal reads the same both ways.
        const first = columnsOf(p.data).findIndex((c) => c.value % 10 !== Math.floor(c.value / 10));
        if (first < 0) expect(other).toEqual({ kind: 'none' });
        else
          expect(other).toEqual({ kind: 'step', column: first, cause: 'swapped', at: 3 * first });
      }),
    );
  });

  it('names each cause at its column', () => {
    const d = workedProblem('4728', 6).data;
    expect(checkWorking(d, '28368')).toEqual({ kind: 'no-working' });
    expect(checkWorking(d, '>28368')).toEqual({ kind: 'no-working' });
    expect(checkWorking(d, '84,6,34,82>28368')).toMatchObject({
      column: 1,
      cause: 'format',
      at: 3,
    });
    expect(checkWorking(d, '84,21,34,82>28368')).toMatchObject({ column: 1, cause: 'carry-in' });
    expect(checkWorking(d, '84,71,34,82>28368')).toMatchObject({ column: 1, cause: 'product' });
    expect(checkWorking(d, '84,62,34,82>28368')).toMatchObject({ column: 1, cause: 'carry-out' });
    expect(checkWorking(d, '84,61,34>8368')).toEqual({
      kind: 'skipped',
      written: 3,
      needed: 4,
      at: 8,
    });
    expect(checkWorking(d, '84,61,34,82,00>28368')).toEqual({
      kind: 'extra',
      written: 5,
      needed: 4,
      at: 12,
    });
    // A column is judged from the carry the attempt itself wrote before it.
    expect(checkWorking(d, '84,62,44,82>28368')).toMatchObject({ column: 1, cause: 'carry-out' });
    expect(checkWorking(d, '85,71,34,82>28368')).toMatchObject({ column: 0, cause: 'carry-out' });
    expect(describeCause('carry-in', 1)).toBe('skip the carry into column 2');
  });

  it('locates any single corrupted column', () => {
    fc.assert(
      fc.property(problems, fc.nat(), fc.integer({ min: 0, max: 99 }), (p, pick, replacement) => {
        const solution = workedSolution(p.data);
        const cols = solution.slice(0, solution.indexOf('>')).split(',');
        const k = pick % cols.length;
        const written = String(replacement).padStart(2, '0');
        fc.pre(written !== cols[k]);
        cols[k] = written;
        const check = checkWorking(p.data, `${cols.join(',')}>${p.answer}`);
        expect(check).toMatchObject({ kind: 'step', column: k, at: 3 * k });
        // The broken step's span, in the whole attempt and in working cut off after it.
        const whole = `${cols.join(',')}>${p.answer}`;
        expect(brokenStep(p.data, whole)).toEqual({ at: 3 * k, end: 3 * k + 2 });
        expect(brokenStep(p.data, whole.slice(0, 3 * k + 2))).toEqual({
          at: 3 * k,
          end: 3 * k + 2,
        });
      }),
    );
  });

  it('reads working still being written: nothing broken yet, or its first broken column', () => {
    const p = workedProblem('47281', 6); // 60,84,61,34,82>283686
    expect(brokenStep(p.data, '60,84,')).toBeNull();
    expect(brokenStep(p.data, '60,84,61,34,82>283686')).toBeNull();
    expect(brokenStep(p.data, '60,84,61,34,82,00')).toEqual({ at: 15, end: 17 });
    expect(brokenStep(p.data, '283686')).toEqual({ at: 0, end: 6 });
    expect(brokenStep(p.data, '>283686')).toEqual({ at: 0, end: 7 });
  });
});

describe('worked: the steps hint', () => {
  it('states the number of columns, renders as kN and holds only when true', () => {
    const p = workedProblem('4728', 6);
    const hint = makeHint(p, 'steps', 1, createRng(1));
    expect(hint).toEqual({ kind: 'steps', steps: 4 });
    expect(renderHint(hint!)).toBe('k4');
    expect(parseHint('worked', 'k4')).toEqual({ ok: true, hint });
    expect(parseHint('worked', 'k0').ok).toBe(false);
    expect(hintHolds(p, { kind: 'steps', steps: 4 })).toBe(true);
    expect(hintHolds(p, { kind: 'steps', steps: 5 })).toBe(false);
    expect(makeHint(p, 'steps', 2, createRng(1))).toBeNull();
  });
});
