import { arithmeticEntry } from './arithmetic/entry.ts';
import { TaskError } from './errors.ts';
import type { FamilyEntry } from './family-entry.ts';
import { listlangEntry } from './listlang/entry.ts';
import type { Feedback, Problem, TaskFamily, Verdict } from './types.ts';

/** Every task family, by id: the one place a family is added. */
export const REGISTRY = {
  arithmetic: arithmeticEntry,
  listlang: listlangEntry,
} as const;

export type FamilyId = keyof typeof REGISTRY;

export const FAMILY_IDS = Object.keys(REGISTRY) as readonly FamilyId[];

export function isFamilyId(id: string): id is FamilyId {
  return Object.hasOwn(REGISTRY, id);
}

/** The family's entry; a TaskError naming the known ids for any other id. */
export function familyEntry(id: string): FamilyEntry {
  if (!isFamilyId(id)) {
    const shown = JSON.stringify(id.length > 40 ? `${id.slice(0, 40)}…` : id);
    throw new TaskError(`unknown task family ${shown}; known: ${FAMILY_IDS.join(', ')}`);
  }
  return REGISTRY[id] as FamilyEntry;
}

/** The family with every option on (see FamilyEntry.family). */
export function getFamily(id: string): TaskFamily {
  return familyEntry(id).family;
}

/** Verifies with the problem's own family, so a problem can never meet the wrong verifier. */
export function verifyAnswer(problem: Problem, answer: string): Verdict<Feedback> {
  return getFamily(problem.family).verify(problem, answer);
}
