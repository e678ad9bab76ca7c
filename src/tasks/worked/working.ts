import type { TeacherFormat } from '../types.ts';
import type { StepCause, WorkedData, WorkingCheck } from './types.ts';

/** Separates the columns of a row. */
export const COLUMN_MARK = ',';
/** Separates one partial product's row from the next (a two-digit multiplier). */
export const ROW_MARK = '+';
/** Ends the partial products; the sum's columns follow (a two-digit multiplier). */
export const SUM_MARK = '#';
/** Ends the working; the final answer follows. */
export const FINAL_MARK = '>';

const MARKS = /[,+#>]/;

export interface WorkedColumn {
  /** What the column adds up before its carry: a digit × a multiplier digit, or two rows' digits. */
  readonly base: number;
  readonly carryIn: number;
  /** base + carryIn: its digit is written, the rest carried. */
  readonly value: number;
}

/**
 * One row of the working: a partial product (a × one digit of the multiplier, units digit first)
 * or, below two of them, their sum.
 */
export interface WorkedRow {
  readonly kind: 'partial' | 'sum';
  readonly columns: readonly WorkedColumn[];
  /** The mark that follows the row's last column. */
  readonly end: string;
}

function digitsOf(n: number): number[] {
  return [...String(n)].reverse().map(Number);
}

function carried(bases: readonly number[]): WorkedColumn[] {
  let carry = 0;
  return bases.map((base) => {
    const value = base + carry;
    const column = { base, carryIn: carry, value };
    carry = Math.floor(value / 10);
    return column;
  });
}

/** The digits a row stands for, units first: each column's digit, then the last carry. */
function rowDigits(columns: readonly WorkedColumn[]): number[] {
  const top = Math.floor(columns[columns.length - 1].value / 10);
  return [...columns.map((c) => c.value % 10), ...(top > 0 ? [top] : [])];
}

/**
 * The schoolbook rows of a × m: one partial product per digit of m, units digit first; where m
 * has two digits, their sum (the second row shifted one place), whose digits are the product.
 */
export function rowsOf({ a, multiplier }: WorkedData): WorkedRow[] {
  const aDigits = [...a].reverse().map(Number);
  const mDigits = digitsOf(multiplier);
  const partials = mDigits.map((d) => carried(aDigits.map((x) => x * d)));
  if (partials.length === 1) return [{ kind: 'partial', columns: partials[0], end: FINAL_MARK }];
  const [low, high] = partials.map(rowDigits);
  const width = Math.max(low.length, high.length + 1);
  const sum = carried(
    Array.from({ length: width }, (_, k) => (low[k] ?? 0) + (k > 0 ? (high[k - 1] ?? 0) : 0)),
  );
  return [
    { kind: 'partial', columns: partials[0], end: ROW_MARK },
    { kind: 'partial', columns: partials[1], end: SUM_MARK },
    { kind: 'sum', columns: sum, end: FINAL_MARK },
  ];
}

/** The product, most significant digit first. */
export function productOf(data: WorkedData): string {
  return productOfRows(rowsOf(data));
}

/** The digits of the last row (the only one, or the sum), most significant first. */
function productOfRows(rows: readonly WorkedRow[]): string {
  return rowDigits(rows[rows.length - 1].columns)
    .reverse()
    .join('');
}

/**
 * A worked solution, as the family's teacher writes it: each row's columns units first, then `>`
 * and the product. `own` as the base learned it, each column's digit then its carry
 * (`84,61,34,82>28368` for 4728 × 6; with a two-digit multiplier the partial products, `+`
 * between, `#` and their sum: `24,82+12,41#20,90,60,10>1692` for 47 × 36); `other` each
 * column's value as a number, carry first (`48,16,43,28>28368`).
 */
export function workedSolution(data: WorkedData, format: TeacherFormat = 'own'): string {
  const columnText = (c: WorkedColumn) => {
    const digit = c.value % 10;
    const carry = Math.floor(c.value / 10);
    return format === 'own' ? `${digit}${carry}` : `${carry}${digit}`;
  };
  const rows = rowsOf(data);
  return (
    rows.map((row) => row.columns.map(columnText).join(COLUMN_MARK) + row.end).join('') +
    productOfRows(rows)
  );
}

/** The final answer inside a written answer: what follows its last `>`, or all of it. */
export function finalAnswerOf(written: string): string {
  const k = written.lastIndexOf(FINAL_MARK);
  return k < 0 ? written : written.slice(k + 1);
}

/** How far a text of working reads right: the first thing wrong, or where it stands. */
type Walk =
  | { readonly kind: 'wrong'; readonly check: WorkingCheck }
  | { readonly kind: 'right'; readonly row: number; readonly written: number };

/**
 * Reads working in writing order against the problem's rows, each column from the problem and
 * the carry the attempt itself wrote out of the column before (right, or the walk has stopped
 * there), so the first broken step is named even where later ones follow rightly from it.
 * `finished` text is the working before the last `>`; unfinished text may stop anywhere.
 */
function walk(rows: readonly WorkedRow[], text: string, finished: boolean): Walk {
  let at = 0;
  for (let r = 0; r < rows.length; r++) {
    const { columns, end } = rows[r];
    for (let k = 0; ; k++) {
      const rest = text.slice(at);
      const next = rest.search(MARKS);
      const part = next < 0 ? rest : rest.slice(0, next);
      // Unfinished working that stops after a mark (or at the start) is right so far.
      if (!finished && next < 0 && part === '') return { kind: 'right', row: r, written: k };
      if (k >= columns.length) {
        const written = k + countColumns(text.slice(at));
        return {
          kind: 'wrong',
          check: { kind: 'extra', row: r, written, needed: columns.length, at },
        };
      }
      const cause = stepCause(columns[k], part);
      if (cause) return { kind: 'wrong', check: { kind: 'step', row: r, column: k, cause, at } };
      at += part.length;
      if (next < 0) {
        if (!finished) return { kind: 'right', row: r, written: k + 1 };
        // The working ends here: a row short, or the whole of it.
        if (k + 1 < columns.length)
          return { kind: 'wrong', check: skipped(r, k + 1, columns.length, at) };
        if (r + 1 < rows.length) return { kind: 'wrong', check: rowsCheck(rows, r, text, at) };
        return { kind: 'right', row: rows.length, written: 0 };
      }
      const mark = rest[next];
      if (mark === COLUMN_MARK) {
        at += 1;
        continue;
      }
      if (k + 1 < columns.length)
        return { kind: 'wrong', check: skipped(r, k + 1, columns.length, at) };
      // In finished working the last row ends the text; a `>` before that is a wrong mark too.
      if (mark !== end || (finished && end === FINAL_MARK))
        return { kind: 'wrong', check: rowsCheck(rows, r, text, at) };
      at += 1;
      break;
    }
  }
  return { kind: 'right', row: rows.length, written: 0 };
}

function skipped(row: number, written: number, needed: number, at: number): WorkingCheck {
  return { kind: 'skipped', row, written, needed, at };
}

/**
 * After row `row`, complete and right, the text goes on with the wrong mark or stops: as many
 * partial products as the text writes before its sum (or its end) against as many as the
 * multiplier has digits; where those agree, the sum not begun, or a mark out of place (read as
 * the format of the next row's first column).
 */
function rowsCheck(
  rows: readonly WorkedRow[],
  row: number,
  text: string,
  at: number,
): WorkingCheck {
  const written = text.split(/[#>]/)[0].split(ROW_MARK).length;
  const needed = rows.filter((r) => r.kind === 'partial').length;
  if (written !== needed) return { kind: 'rows', written, needed, at };
  const next = rows[row + 1];
  if (at >= text.length && next) return skipped(row + 1, 0, next.columns.length, at);
  return { kind: 'step', row: Math.min(row + 1, rows.length - 1), column: 0, cause: 'format', at };
}

/** Columns in a text up to its first mark other than a column's. */
function countColumns(text: string): number {
  const stop = text.search(/[+#>]/);
  return (stop < 0 ? text : text.slice(0, stop)).split(COLUMN_MARK).length;
}

/**
 * Checks a written answer step by step against the problem (walk). Reads no reference answer:
 * where the working is right, the product is checked against what the working gives.
 */
export function checkWorking(data: WorkedData, written: string): WorkingCheck {
  const end = written.lastIndexOf(FINAL_MARK);
  if (end <= 0) return { kind: 'no-working' };
  const rows = rowsOf(data);
  const read = walk(rows, written.slice(0, end), true);
  if (read.kind === 'wrong') return read.check;
  return written.slice(end + 1) === productOfRows(rows)
    ? { kind: 'none' }
    : { kind: 'copy', at: end + 1 };
}

/**
 * The mark that goes on from right working: `,` where its row has columns to come, the row's own
 * end mark where it is complete; nothing after a mark, or where the working is not right.
 */
export function nextMark(data: WorkedData, rightWorking: string): string {
  if (rightWorking === '' || MARKS.test(rightWorking[rightWorking.length - 1])) return '';
  const rows = rowsOf(data);
  const read = walk(rows, rightWorking, false);
  if (read.kind === 'wrong' || read.row >= rows.length) return '';
  const row = rows[read.row];
  return read.written < row.columns.length ? COLUMN_MARK : row.end;
}

/** Where each right column ends in right working: the places a scaffold may stop. */
export function columnEnds(rightWorking: string): number[] {
  return [...rightWorking.matchAll(/[0-9]{2}/g)].map((m) => m.index + 2);
}

/**
 * Where an attempt's first broken step is, in its text: the column (or the product, the columns
 * or rows missing or extra, the missing working) from `at` to `end` — read from the problem and
 * the attempt alone, as checkWorking reads it. A text without `>` is working still being written:
 * its first wrong column, or null where every column so far is right. Null for a right answer.
 */
export function brokenStep(data: WorkedData, written: string): { at: number; end: number } | null {
  if (!written.includes(FINAL_MARK)) {
    const read = walk(rowsOf(data), written, false);
    return read.kind === 'wrong' ? span(written, read.check) : null;
  }
  const check = checkWorking(data, written);
  return check.kind === 'none' ? null : span(written, check);
}

function span(written: string, check: WorkingCheck): { at: number; end: number } | null {
  switch (check.kind) {
    case 'none':
      return null;
    case 'no-working':
      return { at: 0, end: written.length };
    case 'step':
    case 'extra': {
      const next = written.slice(check.at).search(MARKS);
      return { at: check.at, end: next < 0 ? written.length : check.at + next };
    }
    case 'skipped':
    case 'rows':
      return { at: check.at, end: Math.min(written.length, check.at + 1) };
    case 'copy':
      // The product is the step: the working before it is right.
      return { at: check.at, end: check.at };
  }
}

function stepCause(column: WorkedColumn, part: string): StepCause | null {
  if (!/^[0-9][0-9]$/.test(part)) return 'format';
  const [d, c] = [Number(part[0]), Number(part[1])];
  if (d === column.value % 10) return c === Math.floor(column.value / 10) ? null : 'carry-out';
  if (c === column.value % 10 && d === Math.floor(column.value / 10)) return 'swapped';
  if (column.carryIn > 0 && d === column.base % 10) return 'carry-in';
  return 'product';
}

/** A row as the mentor log names it: "row 2" or "the sum"; null where the working is one row. */
export function rowName(data: WorkedData, row: number): string | null {
  const rows = rowsOf(data);
  if (rows.length === 1) return null;
  return rows[row]?.kind === 'sum' ? 'the sum' : `row ${row + 1}`;
}

/** A step's cause in words, at its place ("skip the carry into column 2 of row 1"). */
export function describeCause(
  cause: StepCause,
  data: WorkedData,
  row: number,
  column: number,
): string {
  const name = rowName(data, row);
  const place = `column ${column + 1}${name ? ` of ${name}` : ''}`;
  switch (cause) {
    case 'format':
      return `do not write ${place} as two digits`;
    case 'swapped':
      return `write ${place}'s carry before its digit`;
    case 'carry-in':
      return `skip the carry into ${place}`;
    case 'product':
      return name === 'the sum' ? `add ${place} wrongly` : `multiply ${place} wrongly`;
    case 'carry-out':
      return `carry the wrong digit out of ${place}`;
  }
}
