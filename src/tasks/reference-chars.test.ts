import { describe, expect, it } from 'vitest';
import { arithmeticProblem } from './arithmetic/family.ts';
import { referenceCharsShown } from './reference-chars.ts';
import type { Hint, Problem } from './types.ts';
import { workedProblem } from './worked/family.ts';

// 4721 + 3895 = 8616, written units first: "6168".
const sum = arithmeticProblem('+', '4721', '3895');
/** A problem whose reference is `answer` (the ledger reads only the reference). */
const withAnswer = (answer: string): Problem => ({ ...sum, answer });
const shown = (p: Problem, hints: Hint[], scaffolds: string[] = []) =>
  referenceCharsShown(p, { hints, scaffolds });

describe('the reference ledger', () => {
  it('counts the start of the reference a scaffold or prefix hint spells, once', () => {
    expect(shown(sum, [], ['61'])).toBe(2);
    expect(shown(sum, [{ kind: 'prefix', text: '616' }], ['61'])).toBe(3);
    // A scaffold that is not the reference's start (another problem's, the policy's own working)
    // spells only as far as it agrees.
    expect(shown(sum, [], ['6X6'])).toBe(1);
    expect(shown(sum, [{ kind: 'prefix', text: '99' }])).toBe(0);
  });

  it('counts what a critique marks as right, nothing of an unmarked one', () => {
    expect(shown(sum, [{ kind: 'critique', attempt: '6198', wrongAt: 2 }])).toBe(2);
    expect(shown(sum, [{ kind: 'critique', attempt: '6198', wrongAt: null }])).toBe(0);
  });

  it('counts the ops a uses hint names beyond the start already shown, as a multiset', () => {
    const program = withAnswer('rsr');
    expect(shown(program, [{ kind: 'uses', ops: 'r' }])).toBe(1);
    expect(shown(program, [{ kind: 'uses', ops: 'rr' }])).toBe(2);
    // The first r is the scaffold's; the hint's r is the other one.
    expect(shown(program, [{ kind: 'uses', ops: 'r' }], ['r'])).toBe(2);
    expect(shown(program, [{ kind: 'uses', ops: 'rs' }], ['rs'])).toBe(3);
    expect(shown(program, [{ kind: 'uses', ops: 'd' }])).toBe(0);
  });

  it('counts none for a length or a carry pattern, which constrain the answer without spelling it', () => {
    expect(shown(sum, [{ kind: 'length', length: 4 }])).toBe(0);
    expect(shown(sum, [{ kind: 'carries', carries: '101' }])).toBe(0);
  });

  it('counts only the answer part of a text with working before it', () => {
    // 4728 × 6 = 28368, worked 84,61,34,82>28368: only what follows ">" states the product.
    const p = workedProblem('4728', 6);
    expect(shown(p, [], ['84,61,34,82'])).toBe(0);
    expect(shown(p, [], ['84,61,34,82>28'])).toBe(2);
    expect(shown(p, [{ kind: 'critique', attempt: '84,61,34,82>29', wrongAt: 13 }])).toBe(1);
    // 47 × 6 = 282, worked 24,82>282: working that happens to start as the product states none.
    const q = workedProblem('47', 6);
    expect(shown(q, [], ['24,82'])).toBe(0);
    expect(shown(q, [], ['2'])).toBe(0);
  });
});
