import type { FamilyEntry } from '../family-entry.ts';
import { worked } from './family.ts';
import type { WorkedFeedback, WorkedProblem } from './types.ts';

export const workedEntry: FamilyEntry<WorkedProblem, WorkedFeedback> = {
  label: 'Two-digit multiplication with working (worked)',
  describeLevel: (level) => `${level}-digit × 2-digit with working`,
  answerUnit: ['character', 'characters'],
  reading: {
    note: 'Before ">" the policy writes its working: the two partial products, each column units first as the column\'s digit then its carry (24,82 for 47×6: 7×6 = 42, then 4×6 + 4 = 28), "+" between them, "#", then the columns of their sum the same way. Only the product after ">" is checked.',
    usual: (text) => text,
  },
  advisorGrammar: [
    'The policy writes its working, then ">" and the product: a×m for a two-digit m as the partial product of a and m\'s units digit, "+", the partial product of a and its tens digit, "#", then the sum of the two (the second shifted one place). Each row is written column by column, units first, as two digits, the column\'s digit then its carry, columns separated by "," (47*36: 24,82+12,41#20,90,60,10>1692). Only the product is checked.',
    'Hint forms: "kN" each partial product has N columns; "xATTEMPT" a failed attempt quoted back with "_" before its first wrong character.',
  ].join(' '),
  family: worked,
  training: worked,
  collapse: {
    easy: 3,
    hard: 4,
    jumpAt: 100,
    keepFailed: 0,
    replayMax: 0,
    distill: 0,
    distillPrompts: 0,
    lrDecay: 0,
  },
};
