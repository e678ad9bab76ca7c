// The tasks layer's public surface: pure TypeScript, no engine or GPU.
export {
  ARITH_OPS,
  arithmeticProblem,
  createArithmetic,
  type ArithmeticOptions,
} from './arithmetic/family.ts';
export type {
  ArithmeticData,
  ArithmeticFeedback,
  ArithmeticProblem,
  ArithOp,
  Column,
} from './arithmetic/types.ts';
export { commonPrefix } from './common-prefix.ts';
export { critiqueHolds, critiqueOf, nearMiss, rightPrefix } from './critique.ts';
export { TaskError, VocabularyError } from './errors.ts';
export type { CollapseScenario, FamilyEntry } from './family-entry.ts';
export {
  FAMILY_IDS,
  REGISTRY,
  familyEntry,
  getFamily,
  isFamilyId,
  registerFamily,
  verifyAnswer,
} from './registry.ts';
export {
  CRITIQUE_MARK,
  MAX_HINT_PAYLOAD,
  hintHolds,
  hintStrength,
  makeHint,
  parseHint,
  randomHint,
  renderHint,
  revealedFraction,
  shareStrength,
  type HintParse,
} from './hints.ts';
export { createListlang, listlangProblem, type ListlangOptions } from './listlang/family.ts';
export { FUEL_LIMIT, runProgram } from './listlang/interpreter.ts';
export { LIST_WIDTH, OPS, OP_LETTERS } from './listlang/ops.ts';
export { MAX_PROGRAM_OPS, parseProgram } from './listlang/program.ts';
export type {
  FailingTest,
  ListlangData,
  ListlangFeedback,
  ListlangProblem,
  ListTest,
} from './listlang/types.ts';
export {
  ANSWER_MARK,
  HINT_MARK,
  decodeAnswer,
  encodePrompt,
  encodeSequence,
  promptText,
  scaffoldText,
  type EncodedPrompt,
  type EncodedSequence,
  type PromptOptions,
} from './prompt.ts';
export { TEACHER_FORMATS, hasTeacher, ownSolution, teacherSolution } from './teacher-solution.ts';
export { referenceCharsShown, type ShownHelp } from './reference-chars.ts';
export { statedAnswer, statedAnswerOfWhole } from './stated-answer.ts';
export { createRng, type Rng } from './rng.ts';
export { isArithmeticProblem, isListlangProblem, isWorkedProblem } from './shipped-problems.ts';
export { worked, workedProblem } from './worked/family.ts';
export type {
  StepCause,
  WorkedData,
  WorkedFeedback,
  WorkedProblem,
  WorkingCheck,
} from './worked/types.ts';
export {
  COLUMN_MARK,
  FINAL_MARK,
  ROW_MARK,
  SUM_MARK,
  checkWorking,
  columnEnds,
  describeCause,
  finalAnswerOf,
  nextMark,
  productOf,
  rowName,
  rowsOf,
  workedSolution,
} from './worked/working.ts';
export * from './tokenizer.ts';
export type * from './types.ts';
