import type { FamilyEntry } from '../family-entry.ts';
import { listlang } from './family.ts';
import type { ListlangFeedback, ListlangProblem } from './types.ts';

export const listlangEntry: FamilyEntry<ListlangProblem, ListlangFeedback> = {
  label: 'List programs (listlang)',
  describeLevel: (level) => `${level}-op list program${level === 1 ? '' : 's'}`,
  answerUnit: ['op', 'ops'],
  family: listlang,
  training: listlang,
  // The shipped base writes two ops only when a hint asks for them: help rescues nearly every
  // group, and a group whose re-attempts all pass has no gradient; kept failures give it one.
  // More replay keeps one op but slows two ops as much: 0, the share stays at rest.
  collapse: { easy: 1, hard: 2, jumpAt: 100, keepFailed: 4, replayMax: 0 },
};
