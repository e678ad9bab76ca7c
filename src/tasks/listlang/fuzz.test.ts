import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from '../rng.ts';
import { VOCAB } from '../tokenizer.ts';
import { listlang } from './family.ts';
import { FUEL_LIMIT, runProgram } from './interpreter.ts';
import { LIST_WIDTH, OP_LETTERS } from './ops.ts';
import { MAX_PROGRAM_OPS, parseProgram } from './program.ts';

const RUNS = 10_000;

describe('listlang interpreter fuzzing', () => {
  it(`runs ${RUNS} random programs on random lists within fuel, length and digit bounds`, () => {
    const rng = createRng(99);
    const bad: string[] = [];
    for (let n = 0; n < RUNS; n++) {
      let program = '';
      const len = rng.int(0, 40);
      for (let k = 0; k < len; k++) program += rng.pick([...OP_LETTERS]);
      const input = Array.from({ length: rng.int(0, LIST_WIDTH) }, () => rng.int(0, 9));
      const r = runProgram(program, input);
      const inBounds = r.trace.every(
        (list) =>
          list.length <= LIST_WIDTH && list.every((x) => Number.isInteger(x) && x >= 0 && x <= 9),
      );
      if (
        r.fuel > FUEL_LIMIT ||
        r.trace.length > program.length + 1 ||
        !inBounds ||
        (!r.ok && r.column >= program.length)
      ) {
        bad.push(`${program} on ${input.join('')}: ${JSON.stringify(r)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it(`verifies ${RUNS} random answers (op strings, vocabulary strings, any unicode) without throwing`, () => {
    const rng = createRng(7);
    const problems = [1, 2, 3, 4, 5].map((level) => listlang.sample(level, rng.fork(level)));
    const answers = fc.oneof(
      fc.string({ unit: fc.constantFrom(...OP_LETTERS), maxLength: 60 }),
      fc.string({ unit: fc.constantFrom(...VOCAB), maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
    );
    let n = 0;
    fc.assert(
      fc.property(answers, fc.nat(4), (answer, which) => {
        n++;
        const v = listlang.verify(problems[which], answer);
        expect([0, 1]).toContain(v.reward);
        const f = v.feedback;
        if (f.kind === 'fuel-exhausted') expect(f.fuelUsed).toBeLessThanOrEqual(FUEL_LIMIT);
        if (f.kind === 'parse-error' || f.kind === 'unknown-op') {
          expect(f.column).toBeLessThanOrEqual(Math.min(answer.length, MAX_PROGRAM_OPS));
          expect(parseProgram(answer).ok).toBe(false);
        }
      }),
      { numRuns: RUNS, seed: 1 },
    );
    expect(n).toBe(RUNS);
  });
});
