// What the trainer checks of every plan and reprompt, whoever wrote it (a built-in method, a
// person's module, the page's custom mentor): a bad one is refused with a reason, never carried out.
import {
  encodePrompt,
  encodeSequence,
  parseHint,
  renderHint,
  type Hint,
  type Problem,
  type TaskFamily,
} from '../../tasks/index.ts';
import {
  MAX_CONTEXT_DISTILL_WEIGHT,
  promptOf,
  type ContextDistill,
  type Help,
  type Reprompt,
  type RetryLearning,
} from '../intervention.ts';
import { Refusals } from './refusals.ts';

const RETRY_LEARNING: readonly RetryLearning[] = [
  'as-sampled',
  'unhinted-reweighted',
  'unhinted-shaped',
  'unhinted-shaped-drawn',
];

/**
 * The reprompts of a plan for groups still waiting for help, one each, whoever wrote the plan: a
 * plan that is no list costs the round its help, and an entry that is no reprompt, names no
 * group of the step, or asks for a group twice is refused with an event. A reprompt for a group
 * of the step that no longer waits (it has signal) is passed over, as it always was.
 */
export function forWaitingGroups(
  name: string,
  planned: unknown,
  groupCount: number,
  pending: readonly number[],
  events: string[],
): Reprompt[] {
  if (!Array.isArray(planned)) {
    events.push(
      `${name} plan returned ${planned === null ? 'null' : typeof planned}, not a list of reprompts; no help this round`,
    );
    return [];
  }
  const taken = new Set<number>();
  const out: Reprompt[] = [];
  const refused = new Refusals();
  const refuse = (cause: string, group: unknown) => {
    const g = String(group).slice(0, 40);
    refused.add(cause, `group ${g}`, `reprompt for group ${g} rejected: ${cause}`);
  };
  for (const r of planned as unknown[]) {
    const group = (r as { group?: unknown } | null)?.group;
    if (typeof r !== 'object' || r === null) {
      const value = String(r).slice(0, 40);
      refused.add('not an object', value, `a reprompt that is not an object (${value}) rejected`);
    } else if (
      typeof group !== 'number' ||
      !Number.isInteger(group) ||
      group < 0 ||
      group >= groupCount
    )
      refuse('no such group in this step', group);
    else if (taken.has(group)) refuse('the group has a reprompt already', group);
    else if (pending.includes(group)) {
      taken.add(group);
      out.push(r as Reprompt);
    }
  }
  refused.flushTo(events);
  return out;
}

/** Throws unless `hint` is one the family reads. */
function checkHint(what: string, hint: unknown, problem: Problem): void {
  if (typeof hint !== 'object' || hint === null) throw new RangeError(`${what} is not a hint`);
  let text: string;
  try {
    text = renderHint(hint as Hint);
  } catch (e) {
    throw new RangeError(`${what} is not a hint (${(e as Error).message})`, { cause: e });
  }
  const parsed = parseHint(problem.family, text);
  if (!parsed.ok) throw new RangeError(`${what} does not parse: ${parsed.reason}`);
}

/** A log line's bound: far more than a note needs, and a huge one would swell every export. */
export const MAX_NOTE_LENGTH = 2000;
const MAX_NAME_LENGTH = 80;

function checkText(what: string, text: unknown, max: number): void {
  if (typeof text !== 'string') throw new RangeError(`${what} is not text`);
  if (text.length > max)
    throw new RangeError(`${what} is ${text.length} characters long (at most ${max})`);
}

function checkDiagnosis(d: unknown): void {
  if (typeof d !== 'object' || d === null) throw new RangeError('its diagnosis is not an object');
  const { cause, evidence, confidence, frontier } = d as Record<string, unknown>;
  checkText('its diagnosis cause', cause, MAX_NAME_LENGTH);
  checkText('its diagnosis evidence', evidence, MAX_NOTE_LENGTH);
  if (typeof confidence !== 'number' || !(confidence >= 0 && confidence <= 1))
    throw new RangeError(`its diagnosis confidence must be 0 to 1, got ${String(confidence)}`);
  if (frontier !== undefined && !Number.isInteger(frontier))
    throw new RangeError(`its diagnosis frontier must be a whole number, got ${String(frontier)}`);
}

/** Throws unless `scaffold` is text of the family's answer characters, shorter than an answer. */
function checkScaffold(
  what: string,
  scaffold: unknown,
  problem: Problem,
  family: TaskFamily,
): void {
  if (typeof scaffold !== 'string') throw new RangeError(`${what} is not text`);
  const outside = [...scaffold].find((c) => !family.answerChars.includes(c));
  if (outside !== undefined)
    throw new RangeError(`${what} has ${JSON.stringify(outside)}, not an answer character`);
  if (scaffold.length >= family.maxTokens(problem.level))
    throw new RangeError(`${what} is as long as an answer may be (${scaffold.length})`);
}

/** Throws, saying why, unless the trainer can carry out `r` for `problem`. */
export function checkReprompt(r: Reprompt, problem: Problem, family: TaskFamily, G: number): void {
  const help = r.help as Help | undefined;
  const checkCount = (what: string, count: number) => {
    if (!Number.isInteger(count) || count < 1 || count >= G)
      throw new RangeError(`${what} count must be 1 to ${G - 1}, got ${count}`);
  };
  switch (help?.kind) {
    case 'retry':
      if (!RETRY_LEARNING.includes(help.learn))
        throw new RangeError(
          `a retry is learned ${RETRY_LEARNING.join(', ')}; got ${String(help.learn)}`,
        );
      if (help.distill !== undefined) {
        const { hint: d, weight } = (help.distill ?? {}) as Partial<ContextDistill>;
        if (!(typeof weight === 'number' && weight > 0 && weight <= MAX_CONTEXT_DISTILL_WEIGHT))
          throw new RangeError(
            `its distillation weight must be above 0 and at most ${MAX_CONTEXT_DISTILL_WEIGHT}, got ${String(weight)}`,
          );
        checkHint('its distillation hint', d, problem);
        const under = help.distill.scaffold;
        if (under !== undefined) checkScaffold('its distillation scaffold', under, problem, family);
        encodePrompt(problem, { hint: d, scaffold: under });
      }
      break;
    case 'demonstration':
      checkCount('a demonstration', help.count);
      if (help.weight !== 'shaped' && help.weight !== 'plain')
        throw new RangeError(
          `a demonstration is weighted shaped or plain; got ${String(help.weight)}`,
        );
      encodeSequence(problem, help.answer);
      break;
    case 'refinement':
      checkCount('a refinement', help.count);
      if (!help.critique) throw new RangeError('a refinement needs a critique');
      if (help.perAnswer !== undefined) {
        if (
          !Array.isArray(help.perAnswer) ||
          help.perAnswer.length < 1 ||
          help.perAnswer.length > G
        )
          throw new RangeError(`its critiques per answer must be 1 to ${G}`);
        if (help.count > help.perAnswer.length)
          throw new RangeError(
            `a refinement count of ${help.count} needs as many critiques per answer, got ${help.perAnswer.length}`,
          );
        help.perAnswer.forEach((h, i) => checkHint(`its critique per answer ${i}`, h, problem));
      }
      break;
    default:
      throw new RangeError('its help is none of retry, demonstration, refinement');
  }
  const { hint, scaffold } = promptOf(help);
  if (hint !== undefined) checkHint('its hint', hint, problem);
  if (scaffold !== undefined) checkScaffold('its scaffold', scaffold, problem, family);
  checkText('its note', r.note, MAX_NOTE_LENGTH);
  if (r.author !== undefined) checkText('its author', r.author, MAX_NAME_LENGTH);
  if (r.declined !== undefined) {
    checkText("its declined help's author", r.declined?.by, MAX_NAME_LENGTH);
    checkText("its declined help's reason", r.declined?.why, MAX_NOTE_LENGTH);
  }
  if (r.diagnosis !== undefined) checkDiagnosis(r.diagnosis);
  if (r.strength !== undefined && !(r.strength >= 0 && r.strength <= 3))
    throw new RangeError(`its strength must be 0 to 3, got ${String(r.strength)}`);
  encodePrompt(problem, { hint, scaffold });
}
