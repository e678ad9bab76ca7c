import type { FamilyEntry } from '../family-entry.ts';
import { arithmetic, createArithmetic } from './family.ts';
import type { ArithmeticFeedback, ArithmeticProblem } from './types.ts';

export const arithmeticEntry: FamilyEntry<ArithmeticProblem, ArithmeticFeedback> = {
  label: 'Arithmetic (column addition)',
  describeLevel: (level) => `${level}-digit addition`,
  answerUnit: ['digit', 'digits'],
  // Units first is how the small model adds (docs/architecture.md, "Tasks, prompts and hints"),
  // and it makes a right answer look wrong to anyone who has not been told.
  reading: {
    note: 'Numbers are written units digit first, the order the model adds in: 274+983=168 is 472 + 389 = 861.',
    usual: (text) => text.replace(/\d+/g, (n) => [...n].reverse().join('')),
  },
  advisorGrammar: [
    'Answers are written units digit first (861 is written 168).',
    'Hint forms: "#N" the answer has N digits; "cBITS" 1 or 0 for a carry out of each column, units first (c110);',
    '"pDIGITS" the answer starts with these digits, in writing order (p16).',
  ].join(' '),
  family: arithmetic,
  // The story is addition (3-digit → 4-digit); the family also knows − and × by a digit.
  training: createArithmetic({ ops: ['+'] }),
  // The 3-digit skill falls to a few percent within ten steps of the jump unless replay follows it.
  collapse: {
    easy: 3,
    hard: 4,
    jumpAt: 100,
    keepFailed: 0,
    replayMax: 0.75,
    distill: 0,
    distillPrompts: 0,
    lrDecay: 0,
  },
};
