import type { TeacherFormat } from '../types.ts';
import type { StepCause, WorkedData, WorkingCheck } from './types.ts';

/** Separates the working's columns. */
export const COLUMN_MARK = ',';
/** Ends the working; the final answer follows. */
export const FINAL_MARK = '>';

export interface WorkedColumn {
  /** The multiplicand's digit. */
  readonly digit: number;
  readonly carryIn: number;
  /** digit × multiplier + carryIn */
  readonly value: number;
}

/** The schoolbook columns of a × m, units first. */
export function columnsOf({ a, multiplier }: WorkedData): WorkedColumn[] {
  const columns: WorkedColumn[] = [];
  let carry = 0;
  for (let i = a.length - 1; i >= 0; i--) {
    const digit = a.charCodeAt(i) - 48;
    const value = digit * multiplier + carry;
    columns.push({ digit, carryIn: carry, value });
    carry = Math.floor(value / 10);
  }
  return columns;
}

/** The product, most significant digit first. */
export function productOf(data: WorkedData): string {
  const columns = columnsOf(data);
  const last = columns[columns.length - 1];
  const top = Math.floor(last.value / 10);
  const digits = columns
    .map((c) => c.value % 10)
    .reverse()
    .join('');
  return (top > 0 ? String(top) : '') + digits;
}

/**
 * A worked solution, as the family's teacher writes it: the columns units first, then `>` and the
 * product. `own` as the base learned it, each column's digit then its carry
 * (`84,61,34,82>28368` for 4728 × 6); `other` each column's value as a number, carry first
 * (`48,16,43,28>28368`).
 */
export function workedSolution(data: WorkedData, format: TeacherFormat = 'own'): string {
  const cols = columnsOf(data).map((c) => {
    const digit = c.value % 10;
    const carry = Math.floor(c.value / 10);
    return format === 'own' ? `${digit}${carry}` : `${carry}${digit}`;
  });
  return cols.join(COLUMN_MARK) + FINAL_MARK + productOf(data);
}

/** The final answer inside a written answer: what follows its last `>`, or all of it. */
export function finalAnswerOf(written: string): string {
  const k = written.lastIndexOf(FINAL_MARK);
  return k < 0 ? written : written.slice(k + 1);
}

/**
 * Checks a written answer step by step against the problem, each column from the multiplicand's
 * digit and the carry the attempt itself wrote out of the column before, so the first broken step
 * is named even where later ones follow rightly from it. Reads no reference answer.
 */
export function checkWorking(data: WorkedData, written: string): WorkingCheck {
  const end = written.lastIndexOf(FINAL_MARK);
  if (end <= 0) return { kind: 'no-working' };
  const columns = columnsOf(data);
  const parts = written.slice(0, end).split(COLUMN_MARK);
  let carry = 0;
  let at = 0;
  const digits: number[] = [];
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k];
    if (k >= columns.length)
      return { kind: 'extra', written: parts.length, needed: columns.length, at };
    const cause = stepCause(columns[k].digit, data.multiplier, carry, part);
    if (cause) return { kind: 'step', column: k, cause, at };
    digits.push(Number(part[0]));
    carry = Number(part[1]);
    at += part.length + 1;
  }
  if (parts.length < columns.length)
    return { kind: 'skipped', written: parts.length, needed: columns.length, at: end };
  const fromWorking = (carry > 0 ? String(carry) : '') + digits.reverse().join('');
  return written.slice(end + 1) === fromWorking ? { kind: 'none' } : { kind: 'copy', at: end + 1 };
}

/**
 * Where an attempt's first broken step is, in its text: the column (or the product, the columns
 * missing or extra, the missing working) from `at` to `end` — read from the problem and the
 * attempt alone, as checkWorking reads it. A text without `>` is working still being written: its
 * first wrong column, or null where every column so far is right. Null for a right answer.
 */
export function brokenStep(data: WorkedData, written: string): { at: number; end: number } | null {
  if (!written.includes(FINAL_MARK)) {
    const columns = columnsOf(data);
    let carry = 0;
    let at = 0;
    const parts = written.split(COLUMN_MARK);
    for (const [k, part] of parts.entries()) {
      // A column not begun yet (the text ends with its mark) is not wrong.
      if (part === '' && k === parts.length - 1 && k > 0) return null;
      if (k >= columns.length || stepCause(columns[k].digit, data.multiplier, carry, part))
        return { at, end: at + part.length };
      carry = Number(part[1]);
      at += part.length + 1;
    }
    return null;
  }
  const check = checkWorking(data, written);
  switch (check.kind) {
    case 'none':
      return null;
    case 'no-working':
      return { at: 0, end: written.length };
    case 'step':
    case 'extra': {
      const next = written.slice(check.at).search(/[,>]/);
      return { at: check.at, end: check.at + next };
    }
    case 'skipped':
      return { at: check.at, end: check.at + 1 };
    case 'copy':
      // The product is the step: the working before it is right.
      return { at: check.at, end: check.at };
  }
}

function stepCause(digit: number, m: number, carryIn: number, part: string): StepCause | null {
  if (!/^[0-9][0-9]$/.test(part)) return 'format';
  const value = digit * m + carryIn;
  const [d, c] = [Number(part[0]), Number(part[1])];
  if (d === value % 10) return c === Math.floor(value / 10) ? null : 'carry-out';
  if (c === value % 10 && d === Math.floor(value / 10)) return 'swapped';
  if (carryIn > 0 && d === (digit * m) % 10) return 'carry-in';
  return 'product';
}

/** A step's cause in words, for a diagnosis ("skip the carry into column 2"). */
export function describeCause(cause: StepCause, column: number): string {
  const n = column + 1;
  switch (cause) {
    case 'format':
      return `do not write column ${n} as two digits`;
    case 'swapped':
      return `write column ${n}'s carry before its digit`;
    case 'carry-in':
      return `skip the carry into column ${n}`;
    case 'product':
      return `multiply column ${n} wrongly`;
    case 'carry-out':
      return `carry the wrong digit out of column ${n}`;
  }
}
