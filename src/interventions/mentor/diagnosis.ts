import type { Diagnosis } from '../../rl/intervention.ts';

/** What went wrong in a failed group, as the Diagnostician names it. */
export type Cause =
  | 'format' // answers that are not well-formed (non-digits, empty, parse errors)
  | 'missed-carry' // arithmetic: the digit written is the one without the incoming carry
  | 'wrong-digit' // arithmetic: a wrong digit that is not a missed carry
  | 'length' // the answer stops early or runs long
  | 'wrong-op' // listlang: the program departs from every reference at an op
  | 'runtime' // listlang: a runtime error or exhausted fuel
  | 'wrong-step' // any family read by reference: the answer departs from it at a character
  | 'no-end' // any family: the answers never end (cut off at the length limit)
  | 'alphabet' // any family: the answers use characters no answer of the family uses
  | 'no-working' // worked: no working before the final answer
  | 'copy' // worked: right working, but a final answer that is not what it gives
  | 'unknown';

export interface MentorDiagnosis extends Diagnosis {
  cause: Cause;
  /** Answer characters (digits, ops) the attempts typically got right before breaking. */
  frontier: number;
  /** How many of the group's attempts break in the named way at the frontier. */
  support: number;
  attempts: number;
  /**
   * Where the policy writes working (worked): the working the group's own attempts wrote right,
   * checked step by step against the problem, up to the step they break on — all a scaffold may
   * repeat, since it states nothing of the reference.
   */
  ownWorking?: string;
}
