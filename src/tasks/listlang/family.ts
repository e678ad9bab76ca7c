import { TaskError } from '../errors.ts';
import { checkLevel } from '../levels.ts';
import type { Rng } from '../rng.ts';
import type { TaskFamily } from '../types.ts';
import { runProgram } from './interpreter.ts';
import { fromList, showList, toList } from './lists.ts';
import { LIST_WIDTH, OP_LETTERS, isOp, type List } from './ops.ts';
import { ProgramSpace } from './search.ts';
import type { ListlangFeedback, ListlangProblem } from './types.ts';
import { verifyListlang } from './verify.ts';

export interface ListlangOptions {
  /**
   * Ops the sampled reference programs draw from (default all). Fairness is still judged against
   * every op, since the policy may write any.
   */
  readonly ops?: string;
}

const LEVELS = { min: 1, max: 5 } as const;
const SHOWN = 3;
const HIDDEN = 2;
const INPUT_SETS = 50;
const CANDIDATES = 100;

/**
 * A tiny list language. A problem shows three examples `input>output` of five-digit lists
 * (outputs padded with `_`); the answer is a program of `level` ops. Only fair problems are kept
 * (search.ts): no shorter program fits, and the examples pin the behaviour on the hidden tests.
 */
export function createListlang(
  options: ListlangOptions = {},
): TaskFamily<ListlangProblem, ListlangFeedback> {
  const ops = options.ops ?? OP_LETTERS;
  if (ops.length === 0 || ![...ops].every(isOp)) {
    throw new TaskError(`listlang: ops must be letters of "${OP_LETTERS}", got "${ops}"`);
  }
  const choices = [...ops];
  return {
    id: 'listlang',
    levels: LEVELS,
    answerChars: OP_LETTERS,
    hintKinds: ['length', 'uses', 'prefix'],
    sample(level: number, rng: Rng): ListlangProblem {
      checkLevel('listlang', LEVELS, level);
      // One search per input set serves many candidate programs.
      for (let inputSet = 0; inputSet < INPUT_SETS; inputSet++) {
        const inputs = distinctInputs(SHOWN + HIDDEN, rng);
        const space = new ProgramSpace(inputs, SHOWN, level);
        for (let candidate = 0; candidate < CANDIDATES; candidate++) {
          let program = '';
          for (let k = 0; k < level; k++) program += rng.pick(choices);
          const judged = space.judge(program);
          if (judged.ok) return makeProblem(program, inputs, judged.references);
        }
      }
      throw new TaskError(
        `listlang: no fair ${level}-op problem from ops "${ops}" from ${INPUT_SETS} input sets`,
      );
    },
    verify: verifyListlang,
    maxTokens(level: number): number {
      checkLevel('listlang', LEVELS, level);
      // begin + '|' + hint (a tag and up to level−1 ops, or '#n') + '|' + examples + '=' + ops + end
      const examples = SHOWN * (2 * LIST_WIDTH + 1) + (SHOWN - 1);
      return 1 + 1 + Math.max(2, level) + 1 + examples + 1 + level + 1;
    },
  };
}

/**
 * The problem for a program on given inputs: five-digit strings, the first three shown as
 * examples and the other two hidden. A TaskError says why when the problem is not fair.
 */
export function listlangProblem(program: string, inputs: readonly string[]): ListlangProblem {
  if (inputs.length !== SHOWN + HIDDEN || !inputs.every((s) => /^[0-9]{5}$/.test(s))) {
    throw new TaskError(
      `listlang: need ${SHOWN + HIDDEN} inputs of ${LIST_WIDTH} digits, got ${inputs.join(' ')}`,
    );
  }
  if (new Set(inputs).size !== inputs.length) throw new TaskError('listlang: inputs must differ');
  checkLevel('listlang', LEVELS, program.length);
  if (![...program].every(isOp)) throw new TaskError(`listlang: "${program}" is not a program`);
  const lists = inputs.map(toList);
  const judged = new ProgramSpace(lists, SHOWN, program.length).judge(program);
  if (!judged.ok) {
    throw new TaskError(
      `listlang: "${program}" on ${inputs.join(' ')} is not fair (${judged.reason}: "${judged.witness}")`,
    );
  }
  return makeProblem(program, lists, judged.references);
}

function makeProblem(
  program: string,
  inputs: readonly List[],
  references: string[],
): ListlangProblem {
  const level = program.length;
  const traces = inputs.map((xs) => runProgram(program, xs).trace);
  const tests = inputs.map((xs, i) => ({
    input: fromList(xs),
    output: fromList(traces[i][level]),
    hidden: i >= SHOWN,
  }));
  const text = traces
    .slice(0, SHOWN)
    .map((trace) => `${fromList(trace[0])}>${showList(trace[level])}`)
    .join(',');
  return {
    family: 'listlang',
    level,
    text,
    answer: program,
    data: { tests, references, traces: traces.map((t) => t.map(fromList)) },
  };
}

function distinctInputs(n: number, rng: Rng): List[] {
  const seen = new Set<string>();
  const out: List[] = [];
  while (out.length < n) {
    const xs = Array.from({ length: LIST_WIDTH }, () => rng.int(0, 9));
    const key = xs.join('');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(xs);
  }
  return out;
}

export const listlang = createListlang();
