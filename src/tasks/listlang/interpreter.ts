import { TaskError } from '../errors.ts';
import { LIST_WIDTH, OPS, isOp, type List } from './ops.ts';

/** Fuel per run: every op costs 1 + the length of the list it reads. */
export const FUEL_LIMIT = 64;

export type RunResult =
  | {
      readonly ok: true;
      readonly output: number[];
      /** trace[0] is the input, trace[k] the list after op k. */
      readonly trace: number[][];
      readonly fuel: number;
    }
  | {
      readonly ok: false;
      readonly error: 'runtime' | 'fuel';
      /** Index of the op that failed or could not be paid for. */
      readonly column: number;
      readonly message: string;
      readonly trace: number[][];
      readonly fuel: number;
    };

/**
 * Runs parsed ops (see parseProgram) on one list of at most LIST_WIDTH digits; anything else is
 * a TaskError. No eval: each op is a table lookup of a pure function whose results stay digits
 * and no longer than the input. An op is paid for before it runs, so fuel never exceeds the limit.
 */
export function runProgram(ops: string, input: List, fuelLimit = FUEL_LIMIT): RunResult {
  if (input.length > LIST_WIDTH || !input.every((x) => Number.isInteger(x) && x >= 0 && x <= 9)) {
    throw new TaskError(
      `runProgram: input must be at most ${LIST_WIDTH} digits, got [${input.join(',')}]`,
    );
  }
  let list = input.slice();
  const trace = [list];
  let fuel = 0;
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k];
    if (!isOp(op))
      throw new TaskError(`runProgram: ${JSON.stringify(op)} is not an op; parse first`);
    const cost = 1 + list.length;
    if (fuel + cost > fuelLimit) {
      return {
        ok: false,
        error: 'fuel',
        column: k,
        message: `fuel exhausted: ${fuel} used, op ${k} (${op}) costs ${cost}, limit ${fuelLimit}`,
        trace,
        fuel,
      };
    }
    fuel += cost;
    const r = OPS[op].apply(list);
    if (!r.ok)
      return {
        ok: false,
        error: 'runtime',
        column: k,
        message: `${op}: ${r.message}`,
        trace,
        fuel,
      };
    list = r.list;
    trace.push(list);
  }
  return { ok: true, output: list, trace, fuel };
}
