import { MAX_HINT_PAYLOAD } from '../hint-syntax.ts';
import { createRng } from '../rng.ts';
import { RESERVED_CHARS, TASK_CHARS, shown, type TaskModule } from './task-module.ts';

/** Problems drawn at every level: enough to meet a task's usual faults and its answers' alphabet. */
export const CHECK_PROBLEMS = 100;

/** What was wrong, where: the level, the problem (where one was drawn) and the fault. */
export interface TaskFault {
  readonly level: number;
  /** The problem's text, where the fault is in one. */
  readonly problem?: string;
  readonly fault: string;
}

/** What the check learned of a task that passed it: plain data, so it crosses to any worker. */
export interface CheckedTask {
  /** The characters its answers use (the module's own answerChars, where it says). */
  readonly answerChars: string;
  /** Per level from levels.min: tokens in the longest sequence drawn, longest hint included. */
  readonly maxTokens: readonly number[];
}

export type TaskCheck =
  | { readonly ok: true; readonly checked: CheckedTask }
  | { readonly ok: false; readonly faults: readonly TaskFault[] };

/** Faults a refusal lists: the first at each level, then a count of the rest. */
const SHOWN_FAULTS = 5;

/** A fault as a person reads it: "level 3, problem "cat": the answer … ". */
export function faultText(f: TaskFault): string {
  return `level ${f.level}${f.problem === undefined ? '' : `, problem ${shown(f.problem)}`}: ${f.fault}`;
}

/** A refused task's message: every fault shown, one per line. */
export function refusalText(id: string, faults: readonly TaskFault[]): string {
  const lines = faults.slice(0, SHOWN_FAULTS).map((f) => `  ${faultText(f)}`);
  if (faults.length > SHOWN_FAULTS) lines.push(`  … and ${faults.length - SHOWN_FAULTS} more`);
  return `task "${id}" is refused:\n${lines.join('\n')}`;
}

/**
 * The longest hint the help of any family gives an answer of n characters: a length (`#` and its
 * digits), a prefix (`p` and up to n − 1 characters) or a critique (`x` and a quoted attempt).
 */
export function longestHint(n: number): number {
  return Math.max(1 + String(n).length, n, 1 + MAX_HINT_PAYLOAD);
}

/** Tokens of begin, `|hint|`, the text, `=`, the answer and end. */
export function sequenceTokens(text: string, answer: string): number {
  return 1 + 1 + longestHint(answer.length) + 1 + text.length + 1 + answer.length + 1;
}

/**
 * Samples every level of a task twice from the same seed and checks each problem: `sample`
 * returns strings of the task characters, the sequence fits the model's context with the longest
 * hint, the same seed gives the same problems, and the reference answer verifies as right (1).
 * A `sample` that never returns is not caught here: run the check where a deadline can stop it,
 * and `onLevel` says which level it was at.
 */
export function checkTask(
  task: TaskModule,
  contextLength: number,
  seed = 1,
  onLevel: (level: number) => void = () => {},
): TaskCheck {
  const faults: TaskFault[] = [];
  const alphabet = new Set<string>();
  const maxTokens: number[] = [];
  for (let level = task.levels.min; level <= task.levels.max; level++) {
    onLevel(level);
    const first = drawLevel(task, level, seed);
    const fault =
      first.fault ??
      checkProblems(task, level, first.problems, contextLength) ??
      sameAgain(first.problems, drawLevel(task, level, seed), level);
    if (fault) {
      faults.push(fault);
      continue;
    }
    for (const p of first.problems) for (const c of p.answer) alphabet.add(c);
    maxTokens.push(Math.max(...first.problems.map((p) => sequenceTokens(p.text, p.answer))));
  }
  if (faults.length > 0) return { ok: false, faults };
  const answerChars = task.answerChars ?? [...TASK_CHARS].filter((c) => alphabet.has(c)).join('');
  return { ok: true, checked: { answerChars, maxTokens } };
}

interface Drawn {
  problems: { text: string; answer: string }[];
  fault?: TaskFault;
}

function drawLevel(task: TaskModule, level: number, seed: number): Drawn {
  const rng = createRng(seed).fork(`task-check:${level}`);
  const problems: { text: string; answer: string }[] = [];
  for (let i = 0; i < CHECK_PROBLEMS; i++) {
    let out: unknown;
    try {
      out = task.sample(level, rng);
    } catch (e) {
      return { problems, fault: { level, fault: `sample threw: ${errorMessage(e)}` } };
    }
    const p = out as { text?: unknown; answer?: unknown } | null;
    if (typeof p?.text !== 'string' || typeof p.answer !== 'string')
      return {
        problems,
        fault: { level, fault: `sample returned ${shown(out)}, not { text, answer } as strings` },
      };
    problems.push({ text: p.text, answer: p.answer });
  }
  return { problems };
}

function checkProblems(
  task: TaskModule,
  level: number,
  problems: readonly { text: string; answer: string }[],
  contextLength: number,
): TaskFault | undefined {
  for (const { text, answer } of problems) {
    const at = (fault: string): TaskFault => ({ level, problem: text, fault });
    if (text === '') return at('its text is empty');
    if (answer === '') return at('its answer is empty');
    const bad = outsideChars(text, 'text') ?? outsideChars(answer, 'answer');
    if (bad) return at(bad);
    const tokens = sequenceTokens(text, answer);
    if (tokens > contextLength)
      return at(
        `it takes ${tokens} tokens with its answer and the longest hint, more than the model's context of ${contextLength}`,
      );
    const verdict = verifyReference(task, { level, text, answer });
    if (verdict) return at(verdict);
  }
  return undefined;
}

function outsideChars(s: string, what: 'text' | 'answer'): string | undefined {
  const i = [...s].findIndex((c) => !TASK_CHARS.includes(c));
  if (i < 0) return undefined;
  const c = [...s][i];
  const why = RESERVED_CHARS.includes(c)
    ? 'which the prompt format keeps for itself'
    : 'not in the vocabulary';
  return `its ${what} holds ${JSON.stringify(c)} at position ${i}, ${why} (a task may use ${TASK_CHARS})`;
}

function verifyReference(
  task: TaskModule,
  problem: { level: number; text: string; answer: string },
): string | undefined {
  if (!task.verify) return undefined;
  let r: unknown;
  try {
    r = task.verify(Object.freeze({ ...problem }), problem.answer);
  } catch (e) {
    return `verify threw on the reference answer ${shown(problem.answer)}: ${errorMessage(e)}`;
  }
  if (r !== 1)
    return `the reference answer ${shown(problem.answer)} verifies as ${shown(r)}, not 1`;
  return undefined;
}

function sameAgain(
  first: readonly { text: string; answer: string }[],
  again: Drawn,
  level: number,
): TaskFault | undefined {
  if (again.fault) return again.fault;
  const i = first.findIndex(
    (p, k) => p.text !== again.problems[k].text || p.answer !== again.problems[k].answer,
  );
  if (i < 0) return undefined;
  return {
    level,
    problem: first[i].text,
    fault: `the same seed gave another problem the second time (${shown(again.problems[i].text)}): sample must draw only from its rng`,
  };
}

/** What a thrown value says, whatever was thrown. */
export function errorMessage(e: unknown): string {
  const text = e instanceof Error ? e.message : shown(e);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
