import type { ProblemOf } from '../types.ts';

/** `*` multiplies by a single digit 2..9; `-` always has a non-negative result. */
export type ArithOp = '+' | '-' | '*';

/**
 * One column of the schoolbook method, in writing order (column 0 = units). For `*`, `b` is the
 * single-digit multiplier in every column. `value` = a op b ± carryIn before reduction; for `-`
 * the carry is a borrow: value = a − b − borrowIn, digit = value mod 10, carryOut = 1 if value < 0.
 */
export interface Column {
  readonly a: number;
  readonly b: number;
  readonly carryIn: number;
  readonly value: number;
  readonly digit: number;
  readonly carryOut: number;
}

export interface ArithmeticData {
  readonly op: ArithOp;
  /** Operands as written in the problem, most significant digit first. */
  readonly a: string;
  readonly b: string;
  /** The result most significant digit first, as a person reads it (the answer is its reverse). */
  readonly result: string;
  /** The reference solution's intermediate steps, units column first. */
  readonly columns: readonly Column[];
  /** carryOut of each column as one digit, units first: the payload of a full `carries` hint. */
  readonly carries: string;
}

/** Positions are indices into the answer in writing order (0 = units digit). */
export type ArithmeticFeedback =
  | { readonly family: 'arithmetic'; readonly kind: 'correct' }
  | { readonly family: 'arithmetic'; readonly kind: 'format'; readonly reason: 'empty' }
  | {
      readonly family: 'arithmetic';
      readonly kind: 'format';
      readonly reason: 'non-digit';
      readonly index: number;
      readonly char: string;
    }
  | {
      readonly family: 'arithmetic';
      readonly kind: 'wrong';
      readonly expectedLength: number;
      readonly gotLength: number;
      /** First differing position; `null` where one side has already ended. */
      readonly firstWrong: {
        readonly index: number;
        readonly expected: string | null;
        readonly got: string | null;
      };
      /** Leading digits (in writing order) that match the reference. */
      readonly correctPrefix: number;
      /** Positions present in both answers whose digits differ. */
      readonly wrongDigits: readonly number[];
      /**
       * Positions where a carry (borrow) comes in and the attempt wrote the digit it would have
       * without it; also the final position when the reference ends in a carried-out digit the
       * attempt stopped before.
       */
      readonly missedCarries: readonly number[];
    };

export type ArithmeticProblem = ProblemOf<'arithmetic', ArithmeticData>;
