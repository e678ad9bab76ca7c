/** A list of digits 0..9, at most LIST_WIDTH long. */
export type List = readonly number[];

/** Input lists have exactly this many digits; no op lengthens a list. */
export const LIST_WIDTH = 5;

export type OpResult =
  { readonly ok: true; readonly list: number[] } | { readonly ok: false; readonly message: string };

export interface OpSpec {
  readonly name: string;
  apply(xs: List): OpResult;
}

const ok = (list: number[]): OpResult => ({ ok: true, list });

/**
 * The language: one letter per op, a program is a string of ops applied left to right. Maps are
 * mod 10 so values stay digits; `t` is partial (an empty list has no tail), the one runtime error.
 */
export const OPS: Readonly<Record<string, OpSpec>> = {
  r: { name: 'reverse', apply: (xs) => ok(xs.slice().reverse()) },
  s: { name: 'sort ascending', apply: (xs) => ok(xs.slice().sort((a, b) => a - b)) },
  i: { name: 'add 1 to each (mod 10)', apply: (xs) => ok(xs.map((x) => (x + 1) % 10)) },
  d: { name: 'subtract 1 from each (mod 10)', apply: (xs) => ok(xs.map((x) => (x + 9) % 10)) },
  e: { name: 'keep even digits', apply: (xs) => ok(xs.filter((x) => x % 2 === 0)) },
  o: { name: 'keep odd digits', apply: (xs) => ok(xs.filter((x) => x % 2 === 1)) },
  h: { name: 'keep the first 3', apply: (xs) => ok(xs.slice(0, 3)) },
  t: {
    name: 'drop the first',
    apply: (xs) =>
      xs.length > 0 ? ok(xs.slice(1)) : { ok: false, message: 'tail of an empty list' },
  },
  u: {
    name: 'drop repeated digits, keeping first occurrences',
    apply: (xs) => ok([...new Set(xs)]),
  },
  l: {
    name: 'rotate left by one',
    apply: (xs) => ok(xs.length > 0 ? [...xs.slice(1), xs[0]] : []),
  },
};

/** The op letters, in a fixed order. */
export const OP_LETTERS = Object.keys(OPS).join('');

export function isOp(c: string): boolean {
  return Object.hasOwn(OPS, c);
}
