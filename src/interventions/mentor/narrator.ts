import {
  COLUMN_MARK,
  FINAL_MARK,
  ROW_MARK,
  SUM_MARK,
  columnEnds,
  familyEntry,
  renderHint,
  type Hint,
  type Problem,
} from '../../tasks/index.ts';
import { ordinal } from './count.ts';
import type { MentorDiagnosis } from './diagnosis.ts';

/** The Narrator: one plain-English line per intervention, for the mentor log. */
export function narrate(
  d: MentorDiagnosis,
  problem: Problem,
  help: { hint?: Hint; scaffold?: string; hintTakenOut: boolean },
  round: number,
): string {
  const [one, many] = familyEntry(problem.family).answerUnit;
  const given: string[] = [];
  if (d.ownWorking !== undefined) return narrateWorking(d, help, round);
  if (help.scaffold) {
    const k = help.scaffold.length;
    given.push(
      `started the answer with its first ${k === 1 ? one : `${k} ${many}`} ("${help.scaffold}")`,
    );
  }
  if (help.hint) given.push(`hinted ${describe(help.hint)} ("${renderHint(help.hint)}")`);
  const shown = help.scaffold?.length ?? (help.hint?.kind === 'prefix' ? help.hint.text.length : 0);
  // Help past the frontier gives away the step the attempts broke on: say so, rather than only
  // what is left.
  const givenAway =
    shown > d.frontier
      ? `, giving away the ${ordinal(d.frontier + 1)} ${one}, where they broke`
      : '';
  const left =
    d.cause === 'format'
      ? ''
      : `${givenAway}; the ${ordinal(shown + 1)} ${one} is left to the policy`;
  const learned = help.hintTakenOut
    ? ', and what the re-attempt gets right is learned as if unhinted'
    : '';
  const again = round > 1 ? `Round ${round}, still failing: ` : '';
  return `${again}${capitalise(d.evidence)}; I ${given.join(' and ')}${left}${learned}.`;
}

/** What a scaffold's closing mark asks of the policy. */
const MARK_WORDS: Readonly<Record<string, string>> = {
  [COLUMN_MARK]: 'to go on to the next column',
  [ROW_MARK]: 'to go on to the second partial product',
  [SUM_MARK]: 'to go on to their sum',
  [FINAL_MARK]: 'to end the working there',
};

/** Where the policy writes working: what the mentor repeated of it, and that the answer stays unshown. */
function narrateWorking(
  d: MentorDiagnosis,
  help: { hint?: Hint; scaffold?: string; hintTakenOut: boolean },
  round: number,
): string {
  // The right working up to a broken step ends with the mark before it: the columns are the same.
  const ownWorking = d.ownWorking ?? '';
  const own = MARK_WORDS[ownWorking.slice(-1)] ? ownWorking.slice(0, -1) : ownWorking;
  const given: string[] = [];
  if (help.scaffold) {
    const last = help.scaffold.slice(-1);
    const mark = MARK_WORDS[last];
    const body = mark ? help.scaffold.slice(0, -1) : help.scaffold;
    const added = mark ? ` and "${last}" ${mark}` : '';
    const columns = (w: string) => columnEnds(w).length;
    given.push(
      body === ''
        ? `wrote "${last}"${added}`
        : !own.startsWith(body)
          ? `forced the teacher's working ("${body}")${added}`
          : body === own
            ? `repeated the working they wrote right ("${own}")${added}`
            : `repeated the first ${columns(body)} of the ${columns(own)} columns they wrote right ("${body}")${added}`,
    );
  }
  if (help.hint) given.push(`hinted ${describe(help.hint)} ("${renderHint(help.hint)}")`);
  const learned = help.hintTakenOut
    ? ', and what the re-attempt gets right is learned as if unhinted'
    : '';
  const again = round > 1 ? `Round ${round}, still failing: ` : '';
  return `${again}${capitalise(d.evidence)}; I ${given.join(' and ')}; the next step is the policy's own, and no character of the answer is shown${learned}.`;
}

/** The line for a reminder (reminder.ts): the answer put back in a failing replayed group. */
export function narrateReminder(
  d: MentorDiagnosis,
  problem: Problem,
  count: number,
  groupSize: number,
): string {
  return `${capitalise(d.evidence)} at level ${problem.level}, which it had learned; I put its answer "${problem.answer}" in place of ${count} of the ${groupSize} as a reminder, learned as if it had written it.`;
}

function describe(h: Hint): string {
  switch (h.kind) {
    case 'length':
      return `the answer's length`;
    case 'steps':
      return `how many columns a row of the working has`;
    case 'carries':
      return h.carries.length === 1
        ? 'the carry out of the units column'
        : `the carries out of the first ${h.carries.length} columns`;
    case 'prefix':
      return `the start of the answer`;
    case 'uses':
      return `an op the program uses`;
    case 'critique':
      return h.wrongAt === null
        ? `the failed answer ${h.attempt} back`
        : `the failed answer ${h.attempt} back, wrong from its ${ordinal(h.wrongAt + 1)} character`;
  }
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
