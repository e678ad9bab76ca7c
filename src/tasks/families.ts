import { arithmetic } from './arithmetic/family.ts';
import { TaskError } from './errors.ts';
import { listlang } from './listlang/family.ts';
import type { FamilyId, Feedback, Problem, TaskFamily, Verdict } from './types.ts';

/** The shipped families with default options (createArithmetic/createListlang make others). */
export const FAMILIES = { arithmetic, listlang } as const;

export const FAMILY_IDS: readonly FamilyId[] = ['arithmetic', 'listlang'];

export function isFamilyId(id: string): id is FamilyId {
  return (FAMILY_IDS as readonly string[]).includes(id);
}

/** The family with this id; a TaskError naming the known ids otherwise. */
export function getFamily(id: string): TaskFamily {
  if (!isFamilyId(id)) {
    throw new TaskError(
      `unknown task family ${JSON.stringify(id)}; known: ${FAMILY_IDS.join(', ')}`,
    );
  }
  return FAMILIES[id];
}

/** Verifies with the problem's own family, so a problem can never meet the wrong verifier. */
export function verifyAnswer(problem: Problem, answer: string): Verdict<Feedback> {
  return problem.family === 'arithmetic'
    ? FAMILIES.arithmetic.verify(problem, answer)
    : FAMILIES.listlang.verify(problem, answer);
}
