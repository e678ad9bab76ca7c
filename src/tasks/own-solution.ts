import { getFamily } from './registry.ts';
import type { Problem } from './types.ts';

/**
 * A right answer as the policy writes it: the family's own worked solution where the reference is
 * only the final answer (TaskFamily.ownSolution), else the reference itself.
 */
export function ownSolution(problem: Problem): string {
  return getFamily(problem.family).ownSolution?.(problem) ?? problem.answer;
}
