import { getFamily } from './registry.ts';
import type { Problem } from './types.ts';

/**
 * The part of a text written for `problem` that states its final answer: all of it, or where the
 * family writes working first, what follows the working ('' before the answer is reached: the
 * text may be a scaffold, working still to be gone on from).
 */
export function statedAnswer(problem: Problem, written: string): string {
  const f = getFamily(problem.family);
  return f.statedAnswer ? (f.statedAnswer(written) ?? '') : written;
}

/**
 * The same for a whole written answer (a demonstration): one without working states its answer
 * whole, as the verifier reads it.
 */
export function statedAnswerOfWhole(problem: Problem, written: string): string {
  return getFamily(problem.family).statedAnswer?.(written) ?? written;
}
