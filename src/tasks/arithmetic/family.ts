import { TaskError } from '../errors.ts';
import { checkLevel } from '../levels.ts';
import type { Rng } from '../rng.ts';
import type { TaskFamily } from '../types.ts';
import { solveColumns } from './columns.ts';
import type { ArithmeticFeedback, ArithmeticProblem, ArithOp } from './types.ts';
import { verifyArithmetic } from './verify.ts';

export interface ArithmeticOptions {
  /** Operations to sample from, uniformly; default all three. */
  readonly ops?: readonly ArithOp[];
}

const LEVELS = { min: 1, max: 8 } as const;
/** Every operation the family knows. */
export const ARITH_OPS: readonly ArithOp[] = ['+', '-', '*'];

/**
 * Column arithmetic. Level = digits per operand (the multiplier of `*` is one digit 2..9).
 * Every number is written units digit first — operands (`274+983` is 472+389) and answer (`168`
 * for 861) — so answer digit k depends on operand digits k and the carry already written, at
 * distances fixed for a level: a small char-level model learns that lookup. `data` keeps the
 * operands and result as a person reads them.
 */
export function createArithmetic(
  options: ArithmeticOptions = {},
): TaskFamily<ArithmeticProblem, ArithmeticFeedback> {
  const ops = options.ops ?? ARITH_OPS;
  if (ops.length === 0 || ops.some((o) => !ARITH_OPS.includes(o))) {
    throw new TaskError(
      `arithmetic: ops must be a non-empty subset of + - *, got ${ops.join(' ')}`,
    );
  }
  return {
    id: 'arithmetic',
    levels: LEVELS,
    answerChars: '0123456789',
    hintKinds: ['length', 'carries', 'prefix'],
    sample(level: number, rng: Rng): ArithmeticProblem {
      checkLevel('arithmetic', LEVELS, level);
      const op = rng.pick(ops);
      let a = operand(level, rng);
      let b = op === '*' ? String(rng.int(2, 9)) : operand(level, rng);
      if (op === '-' && a < b) [a, b] = [b, a]; // same length: string order is number order
      return arithmeticProblem(op, a, b);
    },
    verify: verifyArithmetic,
    maxTokens(level: number): number {
      checkLevel('arithmetic', LEVELS, level);
      // begin + '|' + hint ('c' and one digit per column) + '|' + a op b + '=' + answer + end
      return 1 + 1 + (level + 1) + 1 + (2 * level + 1) + 1 + (level + 1) + 1;
    },
  };
}

/**
 * The problem `a op b` (decimal strings without leading zeros); its level is the operands' digit
 * count (of `a` for `*`). For `-`, a ≥ b; for `*`, b is a single digit.
 */
export function arithmeticProblem(op: ArithOp, a: string, b: string): ArithmeticProblem {
  const number = /^(0|[1-9][0-9]*)$/;
  if (!ARITH_OPS.includes(op) || !number.test(a) || !number.test(b)) {
    throw new TaskError(`arithmetic: not a problem: ${a} ${op} ${b}`);
  }
  if (op === '*' && b.length !== 1)
    throw new TaskError(`arithmetic: ${a}*${b} needs a one-digit multiplier`);
  if (op === '-' && (a.length < b.length || (a.length === b.length && a < b))) {
    throw new TaskError(`arithmetic: ${a}-${b} would be negative`);
  }
  const level = op === '*' ? a.length : Math.max(a.length, b.length);
  checkLevel('arithmetic', LEVELS, level);
  const { columns, answer } = solveColumns(op, a, b);
  return {
    family: 'arithmetic',
    level,
    text: `${reversed(a)}${op}${reversed(b)}`,
    answer,
    data: {
      op,
      a,
      b,
      result: reversed(answer),
      columns,
      carries: columns.map((c) => c.carryOut).join(''),
    },
  };
}

function reversed(s: string): string {
  return [...s].reverse().join('');
}

/** Exactly `digits` digits without a leading zero (level 1 includes 0). */
function operand(digits: number, rng: Rng): string {
  if (digits === 1) return String(rng.int(0, 9));
  let s = String(rng.int(1, 9));
  for (let i = 1; i < digits; i++) s += String(rng.int(0, 9));
  return s;
}

export const arithmetic = createArithmetic();
