import type { ProblemOf } from '../types.ts';

/**
 * The problem's operands only: the family's reference holds the final answer and nothing of the
 * working, so a method that wants the working must ask a teacher (working.ts) for it.
 */
export interface WorkedData {
  /** The multiplicand, most significant digit first, as a person reads it. */
  readonly a: string;
  /** The multiplier, 2..99: the family samples two digits (12..99), one digit is kept for tests. */
  readonly multiplier: number;
}

export type WorkedProblem = ProblemOf<'worked', WorkedData>;

/**
 * Why a written step is wrong, judged from the problem and the attempt's own previous step:
 *   format      the column is not two digits (or a row's mark is out of place)
 *   swapped     the column's two digits are right in the other order (carry first)
 *   carry-in    the digit is the column's product (or sum) without the carry that came in
 *   product     the digit is wrong otherwise (a product in a partial row, a sum in the sum)
 *   carry-out   the digit is right, the carry written out of the column is not
 */
export type StepCause = 'format' | 'swapped' | 'carry-in' | 'product' | 'carry-out';

/**
 * What is wrong with a written answer, the first thing found in writing order. Rows count from 0:
 * the partial products (one per digit of the multiplier, units digit first), then their sum
 * where there are two.
 *   no-working  nothing before the final answer (or no `>` at all)
 *   step        a column of a row is wrong (`row`, `column` units first from 0, and `cause`)
 *   skipped     every column written is right, but the row ends before its last
 *   extra       every column is right and the row has more than it needs
 *   rows        as many partial products written as the multiplier does not have digits
 *   copy        the working is right, the final answer is not what it gives
 *   none        nothing wrong (the answer is right)
 */
export type WorkingCheck =
  | { readonly kind: 'none' }
  | { readonly kind: 'no-working' }
  | {
      readonly kind: 'step';
      readonly row: number;
      readonly column: number;
      readonly cause: StepCause;
      /** Index in the written text of the column's first character. */
      readonly at: number;
    }
  | {
      readonly kind: 'skipped' | 'extra';
      readonly row: number;
      /** Columns the row has as written, and as it needs. */
      readonly written: number;
      readonly needed: number;
      readonly at: number;
    }
  | {
      readonly kind: 'rows';
      readonly written: number;
      readonly needed: number;
      readonly at: number;
    }
  | { readonly kind: 'copy'; readonly at: number };

export type WorkedFeedback =
  | { readonly family: 'worked'; readonly kind: 'correct' }
  | {
      readonly family: 'worked';
      readonly kind: 'wrong';
      /** The final answer the attempt gave (after its last `>`; all of it without one). */
      readonly final: string;
      /** Its working, checked step by step against the problem. */
      readonly check: WorkingCheck;
    };
