import type { ArithOp, Column } from './types.ts';

/** Digit of a column before its carry: what an attempt that forgot the carry writes. */
export function noCarryDigit(op: ArithOp, a: number, b: number): number {
  if (op === '+') return (a + b) % 10;
  if (op === '-') return (a - b + 10) % 10;
  return (a * b) % 10;
}

/**
 * Schoolbook column arithmetic on decimal strings (most significant first), any length: the
 * reference solution with its steps. For `-`, a ≥ b is required; for `*`, b is one digit.
 */
export function solveColumns(
  op: ArithOp,
  a: string,
  b: string,
): { columns: Column[]; answer: string } {
  const width = op === '*' ? a.length : Math.max(a.length, b.length);
  const digitAt = (s: string, i: number) =>
    i < s.length ? s.charCodeAt(s.length - 1 - i) - 48 : 0;
  const columns: Column[] = [];
  let carry = 0;
  for (let i = 0; i < width; i++) {
    const x = digitAt(a, i);
    const y = op === '*' ? Number(b) : digitAt(b, i);
    let value: number, digit: number, carryOut: number;
    if (op === '-') {
      value = x - y - carry;
      digit = (value + 10) % 10;
      carryOut = value < 0 ? 1 : 0;
    } else {
      value = op === '+' ? x + y + carry : x * y + carry;
      digit = value % 10;
      carryOut = Math.floor(value / 10);
    }
    columns.push({ a: x, b: y, carryIn: carry, value, digit, carryOut });
    carry = carryOut;
  }
  // Writing order is units first; a final carry is one more digit (at most 8 for `*`).
  let answer = columns.map((c) => c.digit).join('');
  if (op !== '-' && carry > 0) answer += String(carry);
  answer = answer.replace(/0+$/, '') || '0'; // no leading zeros in the number
  return { columns, answer };
}
