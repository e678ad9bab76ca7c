import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arithmeticProblem } from './arithmetic/family.ts';
import { FAMILY_IDS, getFamily } from './registry.ts';
import {
  MAX_HINT_PAYLOAD,
  hintHolds,
  hintStrength,
  makeHint,
  parseHint,
  randomHint,
  renderHint,
  revealedFraction,
} from './hints.ts';
import { listlangProblem } from './listlang/family.ts';
import { OP_LETTERS } from './listlang/ops.ts';
import { createRng } from './rng.ts';
import { encode } from './tokenizer.ts';
import type { Hint, Strength } from './types.ts';

const add = arithmeticProblem('+', '472', '389'); // answer 168, carries 110
const prog = listlangProblem('isl', ['59898', '31909', '10184', '31181', '87032']);

const digits = (min: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: 16 });
const ops = fc.string({ unit: fc.constantFrom(...OP_LETTERS), minLength: 1, maxLength: 16 });
const length = fc.integer({ min: 1, max: 99 }).map((n): Hint => ({ kind: 'length', length: n }));
const arithmeticHints = fc.oneof(
  length,
  digits(1).map((text): Hint => ({ kind: 'prefix', text })),
  digits(1).map((carries): Hint => ({ kind: 'carries', carries })),
);
const listlangHints = fc.oneof(
  length,
  ops.map((text): Hint => ({ kind: 'prefix', text })),
  ops.map((s): Hint => ({ kind: 'uses', ops: [...s].sort().join('') })),
);

describe('hint language', () => {
  it('renders compact hints with one tag character', () => {
    expect(renderHint({ kind: 'length', length: 4 })).toBe('#4');
    expect(renderHint({ kind: 'prefix', text: '16' })).toBe('p16');
    expect(renderHint({ kind: 'carries', carries: '110' })).toBe('c110');
    expect(renderHint({ kind: 'uses', ops: 'rs' })).toBe('+rs');
  });

  it('round-trips every kind through render and parse, within the vocabulary', () => {
    for (const [family, hints] of [
      ['arithmetic', arithmeticHints],
      ['listlang', listlangHints],
    ] as const) {
      fc.assert(
        fc.property(hints, (hint) => {
          const text = renderHint(hint);
          expect(() => encode(text)).not.toThrow();
          expect(text).not.toMatch(/[|=]/);
          expect(parseHint(family, text)).toEqual({ ok: true, hint });
        }),
      );
    }
  });

  it('rejects malformed hints with a reason', () => {
    const reason = (family: 'arithmetic' | 'listlang', text: string) => {
      const r = parseHint(family, text);
      return r.ok ? 'accepted' : r.reason;
    };
    expect(reason('arithmetic', '')).toBe('empty hint');
    expect(reason('arithmetic', 'z12')).toMatch(/unknown hint tag "z"/);
    expect(reason('arithmetic', '#')).toMatch(/nothing after "#"/);
    expect(reason('arithmetic', '#0')).toMatch(/positive integer/);
    expect(reason('arithmetic', '#04')).toMatch(/positive integer/);
    expect(reason('arithmetic', 'p1a')).toMatch(/"a" at 2 is not one of 0123456789/);
    expect(reason('arithmetic', 'c1-')).toMatch(/"-" at 2/);
    expect(reason('arithmetic', '+rs')).toBe('arithmetic has no uses hints');
    expect(reason('listlang', 'c01')).toBe('listlang has no carries hints');
    expect(reason('listlang', 'prx')).toMatch(/"x" at 2 is not one of/);
    expect(reason('listlang', '+r5')).toMatch(/"5" at 2/);
    expect(reason('listlang', 'p' + 'r'.repeat(MAX_HINT_PAYLOAD + 1))).toMatch(/limit is 16/);
  });

  it('reads a uses hint in any order as the sorted multiset', () => {
    expect(parseHint('listlang', '+sr')).toEqual({ ok: true, hint: { kind: 'uses', ops: 'rs' } });
  });

  it('measures what a hint reveals and how strong it is', () => {
    expect(revealedFraction(add, { kind: 'prefix', text: '16' })).toBeCloseTo(2 / 3);
    expect(revealedFraction(add, { kind: 'length', length: 3 })).toBe(0);
    expect(revealedFraction(add, { kind: 'carries', carries: '110' })).toBe(0);
    expect(revealedFraction(prog, { kind: 'uses', ops: 'i' })).toBeCloseTo(1 / 3);
    expect(hintStrength(add, { kind: 'length', length: 3 })).toBe(1);
    expect(hintStrength(add, { kind: 'prefix', text: '1' })).toBe(1);
    expect(hintStrength(add, { kind: 'prefix', text: '16' })).toBe(2);
    expect(hintStrength(add, { kind: 'carries', carries: '110' })).toBe(3);
    expect(hintStrength(prog, { kind: 'uses', ops: 'is' })).toBe(2);
  });

  it('checks whether a hint is true of the problem', () => {
    expect(hintHolds(add, { kind: 'prefix', text: '16' })).toBe(true);
    expect(hintHolds(add, { kind: 'prefix', text: '86' })).toBe(false);
    expect(hintHolds(add, { kind: 'carries', carries: '11' })).toBe(true);
    expect(hintHolds(add, { kind: 'length', length: 4 })).toBe(false);
    expect(hintHolds(prog, { kind: 'uses', ops: 'il' })).toBe(true);
    expect(hintHolds(prog, { kind: 'uses', ops: 'ii' })).toBe(false);
  });

  it('makes true hints of the asked kind and strength, never the whole answer', () => {
    for (const id of FAMILY_IDS) {
      const family = getFamily(id);
      for (let level = family.levels.min; level <= family.levels.max; level++) {
        const rng = createRng(level);
        for (let n = 0; n < 10; n++) {
          const p = family.sample(level, rng);
          for (const kind of family.hintKinds) {
            for (const strength of [1, 2, 3] as Strength[]) {
              const hint = makeHint(p, kind, strength, rng);
              if (!hint) continue;
              expect(hint.kind).toBe(kind);
              expect(hintStrength(p, hint)).toBe(strength);
              expect(hintHolds(p, hint)).toBe(true);
              expect(revealedFraction(p, hint)).toBeLessThan(1);
              expect(parseHint(id, renderHint(hint))).toEqual({ ok: true, hint });
            }
          }
        }
      }
    }
    expect(makeHint(add, 'length', 2, createRng(0))).toBeNull();
    expect(makeHint(arithmeticProblem('+', '3', '4'), 'prefix', 1, createRng(0))).toBeNull();
    expect(() => makeHint(add, 'uses', 1, createRng(0))).toThrow(/arithmetic has no uses hints/);
  });

  it('draws random hints of every kind, reproducibly', () => {
    const rng = createRng(5);
    const seen = new Set<string>();
    for (let n = 0; n < 200; n++) {
      const family = getFamily(n % 2 ? 'arithmetic' : 'listlang');
      const p = family.sample(3, rng);
      const hint = randomHint(p, rng);
      expect(hintHolds(p, hint)).toBe(true);
      seen.add(`${p.family}:${hint.kind}:${hintStrength(p, hint)}`);
    }
    for (const kind of [
      'length:1',
      'carries:1',
      'carries:2',
      'carries:3',
      'prefix:1',
      'prefix:2',
    ]) {
      expect(seen).toContain(`arithmetic:${kind}`);
    }
    for (const kind of ['length:1', 'uses:1', 'uses:2', 'prefix:1', 'prefix:2']) {
      expect(seen).toContain(`listlang:${kind}`);
    }
    const a = createRng(1);
    const b = createRng(1);
    expect(randomHint(prog, a)).toEqual(randomHint(prog, b));
  });
});
