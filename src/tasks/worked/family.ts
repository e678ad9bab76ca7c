import { TaskError } from '../errors.ts';
import { checkLevel } from '../levels.ts';
import type { Rng } from '../rng.ts';
import type { TaskFamily } from '../types.ts';
import type { WorkedFeedback, WorkedProblem } from './types.ts';
import { verifyWorked } from './verify.ts';
import { FINAL_MARK, brokenStep, productOf, workedSolution } from './working.ts';

const LEVELS = { min: 1, max: 7 } as const;

/**
 * Multiplication by a two-digit number with the working written out (docs/tasks.md, "worked").
 * Level = digits of the multiplicand. Numbers read as people write them; the policy writes each
 * partial product's columns (digit, then carry, units first), `+` between the two, `#`, the
 * columns of their sum, then `>` and the product. Only the product is checked, and the reference
 * is the product alone: the working is the policy's own.
 */
export const worked: TaskFamily<WorkedProblem, WorkedFeedback> = {
  id: 'worked',
  levels: LEVELS,
  answerChars: '0123456789,+#>',
  hintKinds: ['steps'],
  sample(level: number, rng: Rng): WorkedProblem {
    checkLevel('worked', LEVELS, level);
    let a = String(rng.int(level === 1 ? 2 : 1, 9));
    for (let i = 1; i < level; i++) a += String(rng.int(0, 9));
    return workedProblem(a, rng.int(12, 99));
  },
  verify: verifyWorked,
  teacherSolution: (problem, format) => workedSolution(problem.data, format),
  brokenStep: (problem, attempt) => brokenStep(problem.data, attempt),
  statedAnswer: (written) => {
    const k = written.lastIndexOf(FINAL_MARK);
    return k < 0 ? null : written.slice(k + 1);
  },
  maxTokens(level: number): number {
    checkLevel('worked', LEVELS, level);
    // begin + '|' + longest hint (a critique: tag, 16 characters and its mark) + '|' + a*m + '='
    // + two rows of `level` columns (two digits each, commas between) + '+' + '#' + the sum's
    // columns (at most level + 2) + '>' + product + end
    const row = 3 * level - 1;
    return (
      1 + 1 + 18 + 1 + (level + 3) + 1 + 2 * row + 2 + (3 * (level + 2) - 1) + 1 + (level + 2) + 1
    );
  },
};

/** The problem a × m (a decimal string without leading zeros, m 2..99). */
export function workedProblem(a: string, multiplier: number): WorkedProblem {
  if (
    !/^[1-9][0-9]*$/.test(a) ||
    !Number.isInteger(multiplier) ||
    multiplier < 2 ||
    multiplier > 99
  )
    throw new TaskError(`worked: not a problem: ${a} * ${multiplier}`);
  checkLevel('worked', LEVELS, a.length);
  const data = { a, multiplier };
  return {
    family: 'worked',
    level: a.length,
    text: `${a}*${multiplier}`,
    answer: productOf(data),
    data,
  };
}
