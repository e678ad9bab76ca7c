import type { Verdict } from '../types.ts';
import type { WorkedFeedback, WorkedProblem } from './types.ts';
import { checkWorking, finalAnswerOf } from './working.ts';

/**
 * Rewards the final answer only (what follows the last `>`): working that is wrong but lands on
 * the right product scores 1, and right working with a wrong product 0. The feedback checks the
 * working, for a mentor to diagnose from.
 */
export function verifyWorked(problem: WorkedProblem, written: string): Verdict<WorkedFeedback> {
  const final = finalAnswerOf(written);
  if (final === problem.answer)
    return { reward: 1, feedback: { family: 'worked', kind: 'correct' } };
  return {
    reward: 0,
    feedback: {
      family: 'worked',
      kind: 'wrong',
      final,
      check: checkWorking(problem.data, written),
    },
  };
}
