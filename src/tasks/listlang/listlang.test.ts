import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TaskError } from '../errors.ts';
import { createRng } from '../rng.ts';
import { createListlang, listlang, listlangProblem } from './family.ts';
import { FUEL_LIMIT, runProgram } from './interpreter.ts';
import { fromList, toList } from './lists.ts';
import { OPS, OP_LETTERS } from './ops.ts';
import { MAX_PROGRAM_OPS, parseProgram } from './program.ts';
import type { ListlangFeedback } from './types.ts';

/** Every program of exactly n ops. */
function programsOfLength(n: number): string[] {
  let out = [''];
  for (let k = 0; k < n; k++) out = out.flatMap((p) => [...OP_LETTERS].map((o) => p + o));
  return out;
}

describe('listlang ops and parser', () => {
  it('gives each op its documented meaning', () => {
    const run = (op: string, input: string) => {
      const r = OPS[op].apply(toList(input));
      return r.ok ? fromList(r.list) : `error: ${r.message}`;
    };
    const expected: Record<string, string> = {
      r: '51413',
      s: '11345',
      i: '42526',
      d: '20304',
      e: '4',
      o: '3115',
      h: '314',
      t: '1415',
      u: '3145',
      l: '14153',
    };
    for (const op of OP_LETTERS) expect(run(op, '31415'), op).toBe(expected[op]);
    expect(run('t', '')).toBe('error: tail of an empty list');
    expect(run('l', '')).toBe('');
  });

  it('parses op letters and reports the column of the first problem', () => {
    expect(parseProgram('rse')).toEqual({ ok: true, ops: 'rse' });
    expect(parseProgram('')).toMatchObject({
      kind: 'parse-error',
      column: 0,
      message: 'empty program',
    });
    expect(parseProgram('rsx')).toEqual({ ok: false, kind: 'unknown-op', column: 2, op: 'x' });
    expect(parseProgram('rs3e')).toMatchObject({ kind: 'parse-error', column: 2 });
    expect(parseProgram('R')).toMatchObject({ kind: 'parse-error', column: 0 });
    expect(parseProgram('r'.repeat(MAX_PROGRAM_OPS))).toMatchObject({ ok: true });
    expect(parseProgram('r'.repeat(MAX_PROGRAM_OPS + 5))).toMatchObject({
      kind: 'parse-error',
      column: MAX_PROGRAM_OPS,
    });
  });

  it('charges 1 + list length per op and stops before the limit', () => {
    const ok = runProgram('re', [1, 2, 3, 4, 5]);
    expect(ok).toMatchObject({ ok: true, output: [4, 2], fuel: 12 });
    expect(ok.trace).toEqual([
      [1, 2, 3, 4, 5],
      [5, 4, 3, 2, 1],
      [4, 2],
    ]);
    const out = runProgram('i'.repeat(20), [1, 2, 3, 4, 5]);
    expect(out).toMatchObject({ ok: false, error: 'fuel', column: 10, fuel: 60 });
    expect(() => runProgram('rx', [1])).toThrow(/"x" is not an op; parse first/);
    expect(() => runProgram('r', [1, 2, 3, 4, 5, 6])).toThrow(/at most 5 digits/);
    expect(() => runProgram('r', [10])).toThrow(TaskError);
    expect(runProgram('tttttt', [1, 2, 3, 4, 5])).toMatchObject({
      ok: false,
      error: 'runtime',
      column: 5,
    });
  });
});

describe('listlang problems', () => {
  it('builds the prompt from three examples with padded outputs', () => {
    const p = listlangProblem('isl', ['59898', '31909', '10184', '31181', '87032']);
    expect(p.text).toBe('59898>06990,31909>01240,10184>22591');
    expect(p.answer).toBe('isl');
    expect(p.data.tests.filter((t) => t.hidden).map((t) => t.input)).toEqual(['31181', '87032']);
    expect(p.data.traces[0]).toEqual(['59898', '60909', '00699', '06990']);
    expect(listlangProblem('e', ['12345', '67890', '13579', '24680', '11111']).text).toBe(
      '12345>24___,67890>680__,13579>_____',
    );
  });

  it('refuses unfair problems and says why', () => {
    expect(() => listlangProblem('rr', ['12345', '67890', '13579', '24680', '11111'])).toThrow(
      /not fair \(shorter: ""\)/,
    );
    expect(() => listlangProblem('ss', ['31415', '92653', '58979', '32384', '62643'])).toThrow(
      /shorter: "s"/,
    );
    // Already sorted examples cannot tell sorting from doing nothing.
    expect(() => listlangProblem('s', ['12345', '11223', '00799', '54321', '91919'])).toThrow(
      /ambiguous/,
    );
    expect(() => listlangProblem('eot', ['12345', '67890', '13579', '24680', '11111'])).toThrow(
      /fails: "eot"/,
    );
    expect(() => listlangProblem('t', ['12345', '67890', '13579', '24680', '11111'])).not.toThrow();
    expect(() => listlangProblem('rx', ['12345', '67890', '13579', '24680', '11111'])).toThrow(
      /not a program/,
    );
    expect(() => createListlang({ ops: 'rz' })).toThrow(/ops must be letters/);
  });

  it('keeps only problems where the shortest programs fitting the examples are the correct ones', () => {
    // Brute force with the plain interpreter, independent of the search that generated them.
    const rng = createRng(2024);
    const byLength = [0, 1, 2, 3, 4].map(programsOfLength);
    for (let level = 1; level <= 4; level++) {
      for (let n = 0; n < (level < 4 ? 6 : 2); n++) {
        const p = listlang.sample(level, rng);
        const fits = (program: string, hidden: boolean) =>
          p.data.tests
            .filter((t) => t.hidden === hidden)
            .every((t) => {
              const r = runProgram(program, toList(t.input));
              return r.ok && fromList(r.output) === t.output;
            });
        for (let len = 0; len <= level; len++) {
          for (const program of byLength[len]) {
            if (!fits(program, false)) continue;
            expect(len, `${program} fits the examples of ${p.answer}`).toBe(level);
            expect(fits(program, true), `${program} fits the examples of ${p.answer}`).toBe(true);
          }
        }
        const correct = byLength[level].filter((q) => fits(q, false) && fits(q, true));
        expect(p.data.references[0]).toBe(p.answer);
        expect(correct).toEqual(expect.arrayContaining([...p.data.references]));
        expect(p.data.references).toHaveLength(Math.min(8, correct.length));
      }
    }
  });

  it('samples only from the requested ops', () => {
    const rs = createListlang({ ops: 'rsie' });
    const rng = createRng(8);
    for (let i = 0; i < 20; i++) expect(rs.sample(2, rng).answer).toMatch(/^[rsie]{2}$/);
  });
});

describe('listlang verifier', () => {
  const p = listlangProblem('isl', ['59898', '31909', '10184', '31181', '87032']);
  const fb = (answer: string): ListlangFeedback => listlang.verify(p, answer).feedback;

  it('scores a correct program 1 and reports parse errors with their column', () => {
    expect(listlang.verify(p, 'isl')).toEqual({
      reward: 1,
      feedback: { family: 'listlang', kind: 'correct' },
    });
    expect(fb('')).toEqual({
      family: 'listlang',
      kind: 'parse-error',
      column: 0,
      message: 'empty program',
    });
    expect(fb('rx')).toEqual({ family: 'listlang', kind: 'unknown-op', column: 1, op: 'x' });
    expect(fb('r9')).toMatchObject({ kind: 'parse-error', column: 1 });
  });

  it('reports a runtime error with the op, the input and both traces', () => {
    expect(fb('tttttt')).toEqual({
      family: 'listlang',
      kind: 'runtime-error',
      column: 5,
      op: 't',
      message: 't: tail of an empty list',
      test: {
        index: 0,
        hidden: false,
        input: '59898',
        expected: '06990',
        referenceTrace: ['59898', '60909', '00699', '06990'],
        trace: ['59898', '9898', '898', '98', '8', ''],
      },
    });
  });

  it('reports fuel exhaustion', () => {
    expect(fb('i'.repeat(15))).toMatchObject({
      kind: 'fuel-exhausted',
      column: 10,
      fuelUsed: 60,
      fuelLimit: FUEL_LIMIT,
      test: { index: 0 },
    });
  });

  it('reports the first failing test with expected, actual and the pass count', () => {
    expect(fb('r')).toMatchObject({
      kind: 'wrong-output',
      actual: '89895',
      passed: 0,
      total: 5,
      test: { index: 0, hidden: false, expected: '06990', trace: ['59898', '89895'] },
    });
    // `dsi` matches `s` on the shown examples (no zeros there) but not on a hidden test.
    const sorted = listlangProblem('s', ['81832', '65425', '86498', '28045', '83746']);
    expect(listlang.verify(sorted, 'dsi').feedback).toEqual({
      family: 'listlang',
      kind: 'wrong-output',
      actual: '24580',
      passed: 4,
      total: 5,
      test: {
        index: 3,
        hidden: true,
        input: '28045',
        expected: '02458',
        referenceTrace: ['28045', '02458'],
        trace: ['28045', '17934', '13479', '24580'],
      },
    });
  });

  it('accepts any correct program, not just the reference text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer(), (level, seed) => {
        const q = listlang.sample(level, createRng(seed));
        for (const ref of q.data.references) {
          expect(ref).toHaveLength(level);
          expect(listlang.verify(q, ref).reward).toBe(1);
        }
      }),
      { numRuns: 40 },
    );
  });
});
