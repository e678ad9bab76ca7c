import type { FamilyEntry } from '../family-entry.ts';
import { worked } from './family.ts';
import type { WorkedFeedback, WorkedProblem } from './types.ts';

export const workedEntry: FamilyEntry<WorkedProblem, WorkedFeedback> = {
  label: 'Multiplication with working (worked)',
  describeLevel: (level) => `${level}-digit × 1-digit with working`,
  answerUnit: ['character', 'characters'],
  reading: {
    note: 'Before ">" the policy writes its working: each column of the multiplication, units first, as the column\'s digit then its carry (84,61 for 8×6 = 48, then 2×6 + 4 = 16). Only the product after ">" is checked.',
    usual: (text) => text,
  },
  advisorGrammar: [
    'The policy writes its working, then ">" and the product: each column of a×m, units column first, as two digits, the column\'s digit then its carry, columns separated by "," (4728*6: 84,61,34,82>28368). Only the product is checked.',
    'Hint forms: "kN" the working has N columns; "xATTEMPT" a failed attempt quoted back with "_" before its first wrong character.',
  ].join(' '),
  family: worked,
  training: worked,
  collapse: {
    easy: 4,
    hard: 5,
    jumpAt: 100,
    keepFailed: 0,
    replayMax: 0,
    distill: 0,
    distillPrompts: 0,
    lrDecay: 0,
  },
};
