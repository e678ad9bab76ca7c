import type { ProblemOf } from '../types.ts';

/** Lists are digit strings without padding (`"24"`); the prompt pads them to width 5 with `_`. */
export interface ListTest {
  readonly input: string;
  readonly output: string;
  /** Hidden tests are run by the verifier but not shown in the prompt. */
  readonly hidden: boolean;
}

export interface ListlangData {
  /** The shown examples first, then the hidden tests. */
  readonly tests: readonly ListTest[];
  /** Correct programs of the reference's length (problem.answer first), up to 8. */
  readonly references: readonly string[];
  /** The reference solution's steps: per test, the list before the first op and after each op. */
  readonly traces: readonly (readonly string[])[];
}

/** A failing test with the list each side produced, traces as in ListlangData.traces. */
export interface FailingTest {
  readonly index: number;
  readonly hidden: boolean;
  readonly input: string;
  readonly expected: string;
  /** The reference program's trace on this input. */
  readonly referenceTrace: readonly string[];
  /** The attempt's trace, up to where it stopped. */
  readonly trace: readonly string[];
}

/** Columns are 0-based indices into the answer; for run failures, the index of the op. */
export type ListlangFeedback =
  | { readonly family: 'listlang'; readonly kind: 'correct' }
  | {
      readonly family: 'listlang';
      readonly kind: 'parse-error';
      readonly column: number;
      readonly message: string;
    }
  | {
      readonly family: 'listlang';
      readonly kind: 'unknown-op';
      readonly column: number;
      readonly op: string;
    }
  | {
      readonly family: 'listlang';
      readonly kind: 'runtime-error';
      readonly column: number;
      readonly op: string;
      readonly message: string;
      readonly test: FailingTest;
    }
  | {
      readonly family: 'listlang';
      readonly kind: 'fuel-exhausted';
      readonly column: number;
      readonly fuelUsed: number;
      readonly fuelLimit: number;
      readonly test: FailingTest;
    }
  | {
      readonly family: 'listlang';
      readonly kind: 'wrong-output';
      readonly actual: string;
      /** Tests passed before the first failure, and the total. */
      readonly passed: number;
      readonly total: number;
      readonly test: FailingTest;
    };

export type ListlangProblem = ProblemOf<'listlang', ListlangData>;
