import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TaskError } from '../errors.ts';
import { createRng } from '../rng.ts';
import type { ArithmeticFeedback } from './types.ts';
import { arithmetic, arithmeticProblem, createArithmetic } from './family.ts';

const feedback = (op: '+' | '-' | '*', a: string, b: string, answer: string): ArithmeticFeedback =>
  arithmetic.verify(arithmeticProblem(op, a, b), answer).feedback;

describe('arithmetic reference solution', () => {
  it('writes answers least-significant digit first, with column steps and carries', () => {
    const p = arithmeticProblem('+', '472', '389');
    expect(p).toMatchObject({ text: '274+983', answer: '168', level: 3 });
    expect(p.data.result).toBe('861');
    expect(p.data.carries).toBe('110');
    expect(p.data.columns).toEqual([
      { a: 2, b: 9, carryIn: 0, value: 11, digit: 1, carryOut: 1 },
      { a: 7, b: 8, carryIn: 1, value: 16, digit: 6, carryOut: 1 },
      { a: 4, b: 3, carryIn: 1, value: 8, digit: 8, carryOut: 0 },
    ]);
  });

  it('handles a final carry, borrows, leading zeros and the single-digit multiplier', () => {
    expect(arithmeticProblem('+', '999', '1')).toMatchObject({ answer: '0001', level: 3 });
    expect(arithmeticProblem('-', '472', '389')).toMatchObject({ answer: '38' });
    expect(arithmeticProblem('-', '472', '389').data.carries).toBe('110');
    const borrow = arithmeticProblem('-', '1000', '1');
    expect(borrow).toMatchObject({ answer: '999' });
    expect(borrow.data.carries).toBe('1110');
    expect(arithmeticProblem('-', '5', '5').answer).toBe('0');
    const mul = arithmeticProblem('*', '47', '6');
    expect(mul).toMatchObject({ text: '74*6', answer: '282', level: 2 });
    expect(mul.data.carries).toBe('42');
    expect(arithmeticProblem('*', '99', '9').answer).toBe('198');
  });

  it('rejects problems that are not ones', () => {
    expect(() => arithmeticProblem('-', '12', '47')).toThrow(/negative/);
    expect(() => arithmeticProblem('*', '12', '47')).toThrow(/one-digit/);
    expect(() => arithmeticProblem('+', '012', '4')).toThrow(TaskError);
    expect(() => arithmeticProblem('+', '123456789', '1')).toThrow(
      /level 9 is not an integer in 1..8/,
    );
    expect(() => createArithmetic({ ops: [] })).toThrow(/non-empty subset/);
  });

  it('agrees with BigInt arithmetic on every sampled problem', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer(), (level, seed) => {
        const p = arithmetic.sample(level, createRng(seed));
        const { op, a, b, result } = p.data;
        const [x, y] = [BigInt(a), BigInt(b)];
        const want = op === '+' ? x + y : op === '-' ? x - y : x * y;
        expect(result).toBe(want.toString());
        expect(p.answer).toBe([...result].reverse().join(''));
        expect(a.length).toBe(level);
        if (level > 1) expect(a[0]).not.toBe('0');
        if (op === '*') expect(Number(b)).toBeGreaterThanOrEqual(2);
        else expect(b.length).toBe(level);
      }),
      { numRuns: 300 },
    );
  });

  it('samples only the requested operations', () => {
    const add = createArithmetic({ ops: ['+'] });
    const rng = createRng(4);
    for (let i = 0; i < 50; i++) expect(add.sample(3, rng).data.op).toBe('+');
  });
});

describe('arithmetic verifier', () => {
  it('scores the exact answer 1 and reports format errors', () => {
    expect(arithmetic.verify(arithmeticProblem('+', '472', '389'), '168').reward).toBe(1);
    expect(feedback('+', '472', '389', '168')).toEqual({ family: 'arithmetic', kind: 'correct' });
    expect(feedback('+', '472', '389', '')).toEqual({
      family: 'arithmetic',
      kind: 'format',
      reason: 'empty',
    });
    expect(feedback('+', '472', '389', '16a')).toEqual({
      family: 'arithmetic',
      kind: 'format',
      reason: 'non-digit',
      index: 2,
      char: 'a',
    });
    expect(feedback('+', '472', '389', ' 168')).toMatchObject({ reason: 'non-digit', index: 0 });
    expect(feedback('+', '472', '389', '168.')).toMatchObject({ index: 3, char: '.' });
  });

  it('finds the first wrong digit in writing order and a missed carry', () => {
    expect(feedback('+', '472', '389', '158')).toEqual({
      family: 'arithmetic',
      kind: 'wrong',
      expectedLength: 3,
      gotLength: 3,
      firstWrong: { index: 1, expected: '6', got: '5' },
      correctPrefix: 1,
      wrongDigits: [1],
      missedCarries: [1],
    });
    expect(feedback('+', '472', '389', '157')).toMatchObject({
      missedCarries: [1, 2],
      wrongDigits: [1, 2],
    });
    // 2 at the tens is wrong but not the no-carry digit (5).
    expect(feedback('+', '472', '389', '128')).toMatchObject({
      missedCarries: [],
      wrongDigits: [1],
    });
  });

  it('reports wrong length, including a dropped final carry', () => {
    expect(feedback('+', '999', '1', '000')).toMatchObject({
      expectedLength: 4,
      gotLength: 3,
      firstWrong: { index: 3, expected: '1', got: null },
      correctPrefix: 3,
      wrongDigits: [],
      missedCarries: [3],
    });
    expect(feedback('+', '999', '1', '999')).toMatchObject({ missedCarries: [1, 2, 3] });
    expect(feedback('+', '472', '389', '1680')).toMatchObject({
      gotLength: 4,
      firstWrong: { index: 3, expected: null, got: '0' },
    });
  });

  it('spots missed borrows and missed multiplication carries', () => {
    expect(feedback('-', '472', '389', '39')).toMatchObject({ missedCarries: [1] });
    // 472-389: a third digit 1 = 4-3 without the borrow (the reference has no digit there).
    expect(feedback('-', '472', '389', '381')).toMatchObject({ missedCarries: [2], gotLength: 3 });
    expect(feedback('*', '47', '6', '242')).toMatchObject({ missedCarries: [1] });
  });

  it('scores 0 when any single digit of the reference changes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer(),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (level, seed, at, shift) => {
          const p = arithmetic.sample(level, createRng(seed));
          expect(arithmetic.verify(p, p.answer).reward).toBe(1);
          const i = at % p.answer.length;
          const digit = String((Number(p.answer[i]) + shift) % 10);
          const changed = p.answer.slice(0, i) + digit + p.answer.slice(i + 1);
          const v = arithmetic.verify(p, changed);
          expect(v.reward).toBe(0);
          expect(v.feedback).toMatchObject({
            kind: 'wrong',
            firstWrong: { index: i },
            wrongDigits: [i],
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
