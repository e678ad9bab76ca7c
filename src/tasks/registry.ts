import { arithmeticEntry } from './arithmetic/entry.ts';
import { TaskError } from './errors.ts';
import type { FamilyEntry } from './family-entry.ts';
import { listlangEntry } from './listlang/entry.ts';
import { workedEntry } from './worked/entry.ts';
import type { Feedback, Problem, TaskFamily, Verdict } from './types.ts';

/** Every task family, by id: the one place a family is added. */
export const REGISTRY = {
  arithmetic: arithmeticEntry,
  listlang: listlangEntry,
  worked: workedEntry,
} as const;

export type FamilyId = keyof typeof REGISTRY;

export const FAMILY_IDS = Object.keys(REGISTRY) as readonly FamilyId[];

export function isFamilyId(id: string): id is FamilyId {
  return Object.hasOwn(REGISTRY, id);
}

/** Families loaded from task modules in this context (a process, a worker), by id. */
const LOADED = new Map<string, FamilyEntry>();

/**
 * Makes a loaded task's family known here, so its problems find their verifier and hints like a
 * shipped family's; loading the same id again replaces it.
 */
export function registerFamily(entry: FamilyEntry): void {
  if (isFamilyId(entry.family.id))
    throw new TaskError(`"${entry.family.id}" is a shipped family; a task module needs its own id`);
  LOADED.set(entry.family.id, entry);
}

/** The family's entry, shipped or loaded; a TaskError naming the known ids for any other id. */
export function familyEntry(id: string): FamilyEntry {
  if (isFamilyId(id)) return REGISTRY[id] as FamilyEntry;
  const loaded = LOADED.get(id);
  if (loaded) return loaded;
  const shown = JSON.stringify(id.length > 40 ? `${id.slice(0, 40)}…` : id);
  const known = [...FAMILY_IDS, ...LOADED.keys()].join(', ');
  throw new TaskError(`unknown task family ${shown}; known: ${known}`);
}

/** The family with every option on (see FamilyEntry.family). */
export function getFamily(id: string): TaskFamily {
  return familyEntry(id).family;
}

/** Verifies with the problem's own family, so a problem can never meet the wrong verifier. */
export function verifyAnswer(problem: Problem, answer: string): Verdict<Feedback> {
  return getFamily(problem.family).verify(problem, answer);
}
