import { LIST_WIDTH, type List } from './ops.ts';

/** `[2, 4]` → `24___`: fixed width keeps every example the same shape in the prompt. */
export function showList(xs: List): string {
  return xs.join('').padEnd(LIST_WIDTH, '_');
}

/** Digit string (as stored in problem data) → list. */
export function toList(digits: string): number[] {
  return [...digits].map(Number);
}

export function fromList(xs: List): string {
  return xs.join('');
}
