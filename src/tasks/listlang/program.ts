import { isOp } from './ops.ts';

/** Longer answers are rejected before running, so parsing and tracing stay bounded. */
export const MAX_PROGRAM_OPS = 32;

/** Columns are 0-based character indices into the answer. */
export type ParseResult =
  | { readonly ok: true; readonly ops: string }
  | {
      readonly ok: false;
      readonly kind: 'parse-error';
      readonly column: number;
      readonly message: string;
    }
  | {
      readonly ok: false;
      readonly kind: 'unknown-op';
      readonly column: number;
      readonly op: string;
    };

/**
 * A program is a non-empty string of op letters, nothing else: `rse` = reverse, then sort, then
 * keep evens. A lowercase letter that is no op is an unknown op; anything else a parse error.
 */
export function parseProgram(text: string): ParseResult {
  if (text.length === 0)
    return { ok: false, kind: 'parse-error', column: 0, message: 'empty program' };
  const n = Math.min(text.length, MAX_PROGRAM_OPS + 1);
  for (let i = 0; i < n; i++) {
    const c = text[i];
    if (i === MAX_PROGRAM_OPS) {
      return {
        ok: false,
        kind: 'parse-error',
        column: i,
        message: `program longer than ${MAX_PROGRAM_OPS} ops`,
      };
    }
    if (isOp(c)) continue;
    if (c >= 'a' && c <= 'z') return { ok: false, kind: 'unknown-op', column: i, op: c };
    const shown = String.fromCodePoint(text.codePointAt(i) ?? 0);
    return {
      ok: false,
      kind: 'parse-error',
      column: i,
      message: `unexpected ${JSON.stringify(shown)}: a program is op letters only`,
    };
  }
  return { ok: true, ops: text };
}
