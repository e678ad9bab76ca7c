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
  columnEnds,
  describeCause,
  finalAnswerOf,
  nextMark,
  productOf,
  rowName,
  rowsOf,
  workedSolution,
} from './working.ts';

const multiplicand = fc
  .tuple(fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 6 }))
  .map(([first, rest]) => [first, ...rest].join(''));
const problems = fc
  .tuple(multiplicand, fc.integer({ min: 2, max: 99 }))
  .map(([a, m]) => workedProblem(a, m));

describe('worked: the problem and its solutions', () => {
  it('reads as people write it; the reference is the product alone', () => {
    const p = workedProblem('4728', 6);
    expect(p).toMatchObject({ text: '4728*6', answer: '28368', level: 4, family: 'worked' });
    expect(rowsOf(p.data)).toEqual([
      {
        kind: 'partial',
        end: '>',
        columns: [
          { base: 48, carryIn: 0, value: 48 },
          { base: 12, carryIn: 4, value: 16 },
          { base: 42, carryIn: 1, value: 43 },
          { base: 24, carryIn: 4, value: 28 },
        ],
      },
    ]);
    expect(workedSolution(p.data)).toBe('84,61,34,82>28368');
    expect(workedSolution(p.data, 'other')).toBe('48,16,43,28>28368');
    expect(ownSolution(p)).toBe('84,61,34,82>28368');
    expect(workedSolution(workedProblem('12', 3).data)).toBe('60,30>36');
  });

  it('writes a two-digit multiplier as two partial products and their sum', () => {
    // 47 × 6 = 282 and 47 × 3 = 141, shifted one place: 282 + 1410 = 1692.
    const p = workedProblem('47', 36);
    expect(p).toMatchObject({ text: '47*36', answer: '1692', level: 2 });
    expect(rowsOf(p.data).map((r) => [r.kind, r.end, r.columns.length])).toEqual([
      ['partial', '+', 2],
      ['partial', '#', 2],
      ['sum', '>', 4],
    ]);
    expect(workedSolution(p.data)).toBe('24,82+12,41#20,90,60,10>1692');
    expect(workedSolution(p.data, 'other')).toBe('42,28+21,14#02,09,06,01>1692');
    // Carries through the sum: 891 + 8910.
    expect(workedSolution(workedProblem('99', 99).data)).toBe('18,98+18,98#10,01,81,90>9801');
  });

  it('computes the product for any problem', () => {
    fc.assert(
      fc.property(problems, (p) => {
        expect(BigInt(productOf(p.data))).toBe(BigInt(p.data.a) * BigInt(p.data.multiplier));
        expect(productOf(p.data)).toBe(p.answer);
      }),
    );
  });

  it('refuses what is not a problem, and samples each level as it says', () => {
    expect(() => workedProblem('0472', 6)).toThrow(TaskError);
    expect(() => workedProblem('47', 1)).toThrow(TaskError);
    expect(() => workedProblem('47', 100)).toThrow(TaskError);
    expect(() => workedProblem('12345678', 2)).toThrow(TaskError);
    const rng = createRng(3);
    for (let level = 1; level <= 7; level++) {
      for (let i = 0; i < 20; i++) {
        const p = worked.sample(level, rng);
        expect(p.data.a).toHaveLength(level);
        expect(p.data.multiplier).toBeGreaterThanOrEqual(12);
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
      fc.property(problems, fc.string({ unit: fc.constantFrom(...'0123456789,+#>x') }), (p, s) => {
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
        const steps = rowsOf(p.data).flatMap((r, row) =>
          r.columns.map((c, column) => ({ row, column, c })),
        );
        const first = steps.findIndex(({ c }) => c.value % 10 !== Math.floor(c.value / 10));
        if (first < 0) expect(other).toEqual({ kind: 'none' });
        else
          expect(other).toEqual({
            kind: 'step',
            row: steps[first].row,
            column: steps[first].column,
            cause: 'swapped',
            at: columnEnds(workedSolution(p.data))[first] - 2,
          });
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
      row: 0,
      written: 3,
      needed: 4,
      at: 8,
    });
    expect(checkWorking(d, '84,61,34,82,00>28368')).toEqual({
      kind: 'extra',
      row: 0,
      written: 5,
      needed: 4,
      at: 12,
    });
    // A column is judged from the carry the attempt itself wrote before it.
    expect(checkWorking(d, '84,62,44,82>28368')).toMatchObject({ column: 1, cause: 'carry-out' });
    expect(checkWorking(d, '85,71,34,82>28368')).toMatchObject({ column: 0, cause: 'carry-out' });
    expect(describeCause('carry-in', d, 0, 1)).toBe('skip the carry into column 2');
    expect(rowName(d, 0)).toBeNull();
  });

  it('names each cause at its row with a two-digit multiplier, the sum read from the rows', () => {
    const d = workedProblem('47', 36).data; // 24,82+12,41#20,90,60,10>1692
    expect(checkWorking(d, '24,82+12,41#20,90,60,10>1692')).toEqual({ kind: 'none' });
    expect(checkWorking(d, '24,82+12,21#20,90,60,10>1692')).toMatchObject({
      kind: 'step',
      row: 1,
      column: 1,
      cause: 'carry-in',
      at: 9,
    });
    expect(checkWorking(d, '24,82+12,41#20,80,60,10>1692')).toMatchObject({
      row: 2,
      column: 1,
      cause: 'product',
    });
    expect(checkWorking(d, '24,82>1692')).toEqual({ kind: 'rows', written: 1, needed: 2, at: 5 });
    expect(checkWorking(d, '24,82+12,41+00,00#20>1692')).toMatchObject({
      kind: 'rows',
      written: 3,
    });
    expect(checkWorking(d, '24,82+12,41>1692')).toEqual({
      kind: 'skipped',
      row: 2,
      written: 0,
      needed: 4,
      at: 11,
    });
    expect(checkWorking(d, '24,82+12,41#20,90,60>692')).toMatchObject({
      kind: 'skipped',
      row: 2,
      written: 3,
    });
    expect(checkWorking(d, '24,82+12,41#20,90,60,10>1693')).toEqual({ kind: 'copy', at: 24 });
    expect(rowName(d, 1)).toBe('row 2');
    expect(describeCause('product', d, 2, 1)).toBe('add column 2 of the sum wrongly');
    expect(describeCause('product', d, 1, 1)).toBe('multiply column 2 of row 2 wrongly');
  });

  it('says which mark goes on from right working, from the problem alone', () => {
    const d = workedProblem('47', 36).data;
    expect(nextMark(d, '')).toBe('');
    expect(nextMark(d, '24')).toBe(',');
    expect(nextMark(d, '24,82')).toBe('+');
    expect(nextMark(d, '24,82+12,41')).toBe('#');
    expect(nextMark(d, '24,82+12,41#20,90,60')).toBe(',');
    expect(nextMark(d, '24,82+12,41#20,90,60,10')).toBe('>');
    expect(nextMark(d, '24,')).toBe('');
    expect(nextMark(d, '25')).toBe('');
    expect(columnEnds('24,82+12')).toEqual([2, 5, 8]);
  });

  it('locates any single corrupted column', () => {
    fc.assert(
      fc.property(problems, fc.nat(), fc.integer({ min: 0, max: 99 }), (p, pick, replacement) => {
        const solution = workedSolution(p.data);
        const ends = columnEnds(solution.slice(0, solution.indexOf('>')));
        const at = ends[pick % ends.length] - 2;
        const written = String(replacement).padStart(2, '0');
        fc.pre(written !== solution.slice(at, at + 2));
        const whole = solution.slice(0, at) + written + solution.slice(at + 2);
        expect(checkWorking(p.data, whole)).toMatchObject({ kind: 'step', at });
        // The broken step's span, in the whole attempt and in working cut off after it.
        expect(brokenStep(p.data, whole)).toEqual({ at, end: at + 2 });
        expect(brokenStep(p.data, whole.slice(0, at + 2))).toEqual({ at, end: at + 2 });
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
