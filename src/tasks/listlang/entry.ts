import type { FamilyEntry } from '../family-entry.ts';
import { listlang } from './family.ts';
import type { ListlangFeedback, ListlangProblem } from './types.ts';

export const listlangEntry: FamilyEntry<ListlangProblem, ListlangFeedback> = {
  label: 'List programs (listlang)',
  describeLevel: (level) => `${level}-op list program${level === 1 ? '' : 's'}`,
  answerUnit: ['op', 'ops'],
  advisorGrammar: [
    'Programs are strings of one-letter ops applied left to right (r reverse, s sort, i +1, d -1, e keep evens, o keep odds, h first 3, t drop first, u dedupe, l rotate left).',
    'Hint forms: "#N" the program has N ops; "+OPS" the program uses these ops (+rs); "pOPS" the program starts with these ops (pr).',
  ].join(' '),
  family: listlang,
  training: listlang,
  // The shipped base writes two ops only when a hint asks for them: help rescues nearly every
  // group, and a group whose re-attempts all pass has no gradient; kept failures give it one.
  // Having learned two ops, a policy writes them at one op too: distillation to the base on
  // one-op prompts keeps one op. On the few replayed prompts alone it kept one op only by
  // slowing two ops; on 32 more a step, distilled only, at a lighter weight, one op ends at
  // ≥ 0.9 (its dip after the jump as deep) while two ops reach 0.5 as soon as without it and 0.8
  // sooner than with it (docs/results/history.md, "Keeping one op"). At a constant learning rate
  // two ops wander by a few points from one eval to the next; annealing the last 30% of a run
  // settles them (docs/results/history.md, "The learning rate annealed").
  collapse: {
    easy: 1,
    hard: 2,
    jumpAt: 100,
    keepFailed: 4,
    replayMax: 0,
    distill: 0.07,
    distillPrompts: 32,
    lrDecay: 0.3,
  },
};
