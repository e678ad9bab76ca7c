import { TaskError } from '../errors.ts';
import { isFamilyId } from '../registry.ts';
import { CUSTOM_TASK_ID } from './custom-problem.ts';
import type { Rng } from '../rng.ts';
import { VOCAB } from '../tokenizer.ts';
import type { Levels } from '../types.ts';

/** What a task module's `sample` returns: the problem as the policy reads it, and its answer. */
export interface SampledProblem {
  readonly text: string;
  readonly answer: string;
}

/** What a task module's `verify` is given: the sampled problem, at its level. */
export interface TaskProblem extends SampledProblem {
  readonly level: number;
}

/**
 * A task family written by a person (task API v1, docs/tasks.md): the module's default export,
 * or its named exports. Only `id`, `label`, `levels` and `sample` are required.
 */
export interface TaskModule {
  /** Lowercase letters, digits and dashes; not a shipped family's id. */
  readonly id: string;
  /** For the task picker: what the family asks of the policy. */
  readonly label: string;
  /** The difficulty knob: integer levels, both ends included. */
  readonly levels: Levels;
  /** Seeded and reproducible: draw only from `rng`, so the same seed gives the same problems. */
  sample(level: number, rng: Rng): SampledProblem;
  /** A reward in [0, 1]; absent, an answer is right (1) when it is the reference exactly, else 0. */
  verify?(problem: TaskProblem, answer: string): number;
  /** A level in words, for the status line; absent, "level 3". */
  describeLevel?(level: number): string;
  /** The jump in difficulty the collapse scenario makes; absent, the lowest level to the next. */
  readonly collapse?: { readonly easy: number; readonly hard: number };
  /** What one character of an answer is, singular and plural; absent, "character(s)". */
  readonly answerUnit?: readonly [string, string];
  /** Every character an answer may hold; absent, those of the answers the load-time check draws. */
  readonly answerChars?: string;
}

/**
 * Characters the prompt format keeps for itself — pad `~`, begin `^`, end `.`, the hint slot's
 * `|` and the answer marker `=` — so no problem text or answer may hold them.
 */
export const RESERVED_CHARS = '~^.|=';

/** The characters a task's text and answers may use: the vocabulary less the reserved ones. */
export const TASK_CHARS = VOCAB.filter((c) => !RESERVED_CHARS.includes(c)).join('');

/** The most levels a task may have: the check samples every one. */
export const MAX_TASK_LEVELS = 32;

const ID = /^[a-z][a-z0-9-]{0,31}$/;

/** What is wrong with a task module's id, or null: not a shipped family's, nor the page's own. */
function idFault(id: unknown): string | null {
  if (typeof id !== 'string' || !ID.test(id))
    return `task id ${shown(id)}: lowercase letters, digits and dashes, starting with a letter, at most 32`;
  if (isFamilyId(id)) return `task id "${id}" is a shipped family's; choose another`;
  if (id === CUSTOM_TASK_ID)
    return `task id "${id}" is the page's name for any task; choose another`;
  return null;
}

/** Whether `id` is one a task module may have (its base's checkpoint metadata names it). */
export const isTaskModuleId = (id: string): boolean => idFault(id) === null;

/**
 * The task a module's exports describe: its default export if it has one, else the named exports.
 * Anything missing or malformed is a TaskError naming the field and what it should be.
 */
export function readTaskModule(exports: unknown): TaskModule {
  if (typeof exports !== 'object' || exports === null)
    throw new TaskError('a task module exports an object with id, label, levels and sample');
  const ns = exports as Record<string, unknown>;
  const t = (typeof ns.default === 'object' && ns.default !== null ? ns.default : ns) as Record<
    string,
    unknown
  >;
  const fault = idFault(t.id);
  if (fault !== null) throw new TaskError(fault);
  const id = t.id as string;
  const fail = (field: string, want: string, value: unknown) =>
    new TaskError(`task "${id}": ${field} ${shown(value)}: ${want}`);
  if (typeof t.label !== 'string' || t.label.trim() === '' || t.label.length > 80)
    throw fail('label', 'a non-empty string of at most 80 characters', t.label);
  const levels = t.levels as Record<string, unknown> | undefined;
  const min = levels?.min;
  const max = levels?.max;
  if (
    !Number.isSafeInteger(min) ||
    !Number.isSafeInteger(max) ||
    (min as number) > (max as number) ||
    (max as number) - (min as number) >= MAX_TASK_LEVELS
  )
    throw fail(
      'levels',
      `{ min, max }, integers with min ≤ max, at most ${MAX_TASK_LEVELS}`,
      levels,
    );
  const range = { min: min as number, max: max as number };
  if (typeof t.sample !== 'function') throw fail('sample', 'a function (level, rng)', t.sample);
  for (const f of ['verify', 'describeLevel'] as const)
    if (t[f] !== undefined && typeof t[f] !== 'function') throw fail(f, 'a function', t[f]);
  const collapse = t.collapse as Record<string, unknown> | undefined;
  if (collapse !== undefined) {
    const { easy, hard } = collapse ?? {};
    const inside = (l: unknown) =>
      Number.isSafeInteger(l) && (l as number) >= range.min && (l as number) <= range.max;
    if (!inside(easy) || !inside(hard) || (easy as number) >= (hard as number))
      throw fail(
        'collapse',
        `{ easy, hard }, levels in ${range.min}..${range.max}, easy < hard`,
        collapse,
      );
  }
  const unit = t.answerUnit;
  if (
    unit !== undefined &&
    !(
      Array.isArray(unit) &&
      unit.length === 2 &&
      unit.every((u) => typeof u === 'string' && u.length <= 20)
    )
  )
    throw fail('answerUnit', 'two short strings, singular and plural', unit);
  const chars = t.answerChars;
  if (
    chars !== undefined &&
    (typeof chars !== 'string' || chars === '' || [...chars].some((c) => !TASK_CHARS.includes(c)))
  )
    throw fail('answerChars', `a non-empty string of the characters ${TASK_CHARS}`, chars);
  return {
    id,
    label: t.label,
    levels: range,
    sample: t.sample as TaskModule['sample'],
    ...(t.verify ? { verify: t.verify as TaskModule['verify'] } : {}),
    ...(t.describeLevel ? { describeLevel: t.describeLevel as TaskModule['describeLevel'] } : {}),
    ...(collapse
      ? { collapse: { easy: collapse.easy as number, hard: collapse.hard as number } }
      : {}),
    ...(unit ? { answerUnit: unit as [string, string] } : {}),
    ...(chars ? { answerChars: chars as string } : {}),
  };
}

/** A value as a message may quote it: short, and never the whole of a large one. */
export function shown(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'function') return 'a function';
  // JSON writes NaN and the infinities as null: a verify that returned NaN would read as null.
  if (typeof value === 'number') return String(value);
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
