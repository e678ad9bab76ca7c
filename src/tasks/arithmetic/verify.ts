import type { Verdict } from '../types.ts';
import { noCarryDigit } from './columns.ts';
import type { ArithmeticFeedback, ArithmeticProblem } from './types.ts';

const F = 'arithmetic';

/** Exact match scores 1, anything else 0, with feedback a mentor can diagnose from. */
export function verifyArithmetic(
  problem: ArithmeticProblem,
  answer: string,
): Verdict<ArithmeticFeedback> {
  const ref = problem.answer;
  if (answer === ref) return { reward: 1, feedback: { family: F, kind: 'correct' } };
  if (answer.length === 0)
    return { reward: 0, feedback: { family: F, kind: 'format', reason: 'empty' } };
  for (let i = 0; i < answer.length; i++) {
    const c = answer.charCodeAt(i);
    if (c < 48 || c > 57) {
      const char = String.fromCodePoint(answer.codePointAt(i) ?? c);
      return {
        reward: 0,
        feedback: { family: F, kind: 'format', reason: 'non-digit', index: i, char },
      };
    }
  }

  const shared = Math.min(ref.length, answer.length);
  let correctPrefix = 0;
  while (correctPrefix < shared && ref[correctPrefix] === answer[correctPrefix]) correctPrefix++;
  const wrongDigits: number[] = [];
  for (let i = correctPrefix; i < shared; i++) if (ref[i] !== answer[i]) wrongDigits.push(i);

  const { op, columns } = problem.data;
  const missedCarries: number[] = [];
  for (let i = 0; i < Math.min(answer.length, columns.length); i++) {
    const col = columns[i];
    if (col.carryIn > 0 && Number(answer[i]) === noCarryDigit(op, col.a, col.b))
      missedCarries.push(i);
  }
  // The reference's last digit is a carried-out one the attempt stopped before writing.
  if (ref.length > columns.length && answer.length === columns.length)
    missedCarries.push(columns.length);

  return {
    reward: 0,
    feedback: {
      family: F,
      kind: 'wrong',
      expectedLength: ref.length,
      gotLength: answer.length,
      firstWrong: {
        index: correctPrefix,
        expected: ref[correctPrefix] ?? null,
        got: answer[correctPrefix] ?? null,
      },
      correctPrefix,
      wrongDigits,
      missedCarries,
    },
  };
}
