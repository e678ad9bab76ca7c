import type { ProblemOf } from '../types.ts';

declare const customTask: unique symbol;

/**
 * The id of a family loaded from a task module: a plain string at run time, branded so that a
 * check like `problem.family === 'arithmetic'` still narrows to the shipped family's data.
 */
export type CustomTaskId = string & { readonly [customTask]: true };

/** The id the page's custom task goes by in every context, whatever its module calls itself. */
export const CUSTOM_TASK_ID = 'custom' as CustomTaskId;

/** A task module's problem: its text and reference answer are all it has. */
export type CustomProblem = ProblemOf<CustomTaskId, null>;

/**
 * How a task module's verifier scored an answer: right (1), wrong (0), partly right (between), or
 * a fault of the verifier itself (scored 0; Verdict.fault says what it did).
 */
export interface CustomFeedback {
  readonly family: CustomTaskId;
  readonly kind: 'right' | 'wrong' | 'partial' | 'fault';
}
