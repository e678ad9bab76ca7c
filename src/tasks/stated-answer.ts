import { getFamily } from './registry.ts';
import type { Problem } from './types.ts';

/**
 * The part of a text written for `problem` that states its final answer: all of it, or where the
 * family writes working first, what follows the working ('' before the answer is reached).
 */
export function statedAnswer(problem: Problem, written: string): string {
  const f = getFamily(problem.family);
  return f.statedAnswer ? (f.statedAnswer(written) ?? '') : written;
}
