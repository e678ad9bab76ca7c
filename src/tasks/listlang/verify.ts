import type { Verdict } from '../types.ts';
import { FUEL_LIMIT, runProgram, type RunResult } from './interpreter.ts';
import { fromList, toList } from './lists.ts';
import { parseProgram } from './program.ts';
import type { FailingTest, ListlangFeedback, ListlangProblem } from './types.ts';

const F = 'listlang';

/**
 * Parses the answer and runs it on every test, shown examples first, then hidden ones. All pass:
 * reward 1; otherwise 0, with the first failure, both traces on its input, and the pass count.
 */
export function verifyListlang(
  problem: ListlangProblem,
  answer: string,
): Verdict<ListlangFeedback> {
  const parsed = parseProgram(answer);
  if (!parsed.ok) {
    const feedback: ListlangFeedback =
      parsed.kind === 'unknown-op'
        ? { family: F, kind: 'unknown-op', column: parsed.column, op: parsed.op }
        : { family: F, kind: 'parse-error', column: parsed.column, message: parsed.message };
    return { reward: 0, feedback };
  }
  const { tests, traces } = problem.data;
  const runs = tests.map((t) => runProgram(parsed.ops, toList(t.input)));
  const passes = runs.map((r, i) => r.ok && fromList(r.output) === tests[i].output);
  const first = passes.indexOf(false);
  if (first < 0) return { reward: 1, feedback: { family: F, kind: 'correct' } };

  const run: RunResult = runs[first];
  const t = tests[first];
  const test: FailingTest = {
    index: first,
    hidden: t.hidden,
    input: t.input,
    expected: t.output,
    referenceTrace: traces[first],
    trace: run.trace.map(fromList),
  };
  if (run.ok) {
    const passed = passes.filter(Boolean).length;
    const actual = fromList(run.output);
    return {
      reward: 0,
      feedback: { family: F, kind: 'wrong-output', actual, passed, total: tests.length, test },
    };
  }
  const feedback: ListlangFeedback =
    run.error === 'fuel'
      ? {
          family: F,
          kind: 'fuel-exhausted',
          column: run.column,
          fuelUsed: run.fuel,
          fuelLimit: FUEL_LIMIT,
          test,
        }
      : {
          family: F,
          kind: 'runtime-error',
          column: run.column,
          op: parsed.ops[run.column],
          message: run.message,
          test,
        };
  return { reward: 0, feedback };
}
