import type { Retry } from '../../rl/intervention.ts';
import {
  FINAL_MARK,
  columnEnds,
  nextMark,
  getFamily,
  ownSolution,
  isArithmeticProblem,
  isWorkedProblem,
  revealedFraction,
  type Hint,
  type Problem,
  type Rng,
  type WorkedProblem,
} from '../../tasks/index.ts';
import type { MentorDiagnosis } from './diagnosis.ts';

/** What the Instructor gives a failed group, before it is said how the retry is learned. */
export interface Lesson {
  hint?: Hint;
  scaffold?: string;
  /** Share of the reference answer the help states outright (scaffold plus hint). */
  revealed: number;
  /**
   * Under the importance-weighted loss, its hint is taken out of the prompt the retry is learned
   * in (a hint beside a scaffold; the demonstrate channel's hint); a hint alone stays.
   */
  hintTakenOut: boolean;
}

/**
 * How help reaches the policy. `scaffold`: the answer forced up to the frontier, the breaking
 * step left to the policy; a re-attempt that passes is learned whole, as
 * the answer to the unhinted prompt: its forced start takes loss too, and a process hint beside
 * the scaffold is taken out of the trained prompt (importance-weighted). `demonstrate`: the
 * answer up to and including the breaking step shown in the hint slot, and the re-attempt trained
 * as if the hint were not there, each token weighted by how likely the unhinted policy was to
 * write it — so the step the attempts break on is itself learned, in the unhinted context.
 */
export type Channel = 'scaffold' | 'demonstrate';

export interface InstructorOptions {
  /**
   * Most of the answer any help may reveal. 60% was the first cap; 80% (four forced digits of a
   * five-digit sum) brings arithmetic to 0.5 after 200 steps instead of 250, at the cost of a
   * brief dip at the easy level (docs/results/history.md, "The reveal cap").
   */
  maxReveal: number;
  /** Add a hint about the process (carry pattern, length, an op used) in the hint slot. */
  processHints: boolean;
  /**
   * Process hints of the family's own kinds (carries, an op used); off, only the answer's length,
   * which any family reads (the task-agnostic mentor).
   */
  familyHints: boolean;
  channel: Channel;
  /**
   * Teach the re-attempts as LUFFY teaches written answers, in the unhinted prompt with the shaped
   * loss (RetryLearning): `sampled`, the tokens the policy drew, a credited scaffold at its
   * plain weight — list programs reach 0.5 after 75 steps instead of 200, arithmetic about as
   * fast as before (docs/results/history.md, "The mentor taught like the rival"); `whole`,
   * every token; absent, importance-weighted (`unhinted-reweighted` where the hint is taken out),
   * the mentor before.
   */
  shapedLoss?: 'whole' | 'sampled';
  /**
   * Learn the re-attempts as they were drawn, under the help (the factorial's "as sampled"
   * channel, docs/protocol.md, Amendment 2), whatever `shapedLoss` says.
   */
  underHelp?: boolean;
  /**
   * Where the policy writes working (worked), what the lesson is made of (Amendment 2's hint
   * sources): `diagnosis`, the mentor's own (the default); `random-step`, the same kind of help
   * with the diagnosis replaced by chance — the group's right working cut at a random column,
   * the number of columns told at random at strength 1; `teacher`, the teacher's whole working
   * forced, the product left to the policy.
   */
  source?: LessonSource;
}

export type LessonSource = 'diagnosis' | 'random-step' | 'teacher';

export const DEFAULT_INSTRUCTOR: InstructorOptions = {
  maxReveal: 0.8,
  processHints: true,
  familyHints: true,
  channel: 'scaffold',
  shapedLoss: 'sampled',
};

/**
 * The Instructor: the smallest help that targets the diagnosed cause. Its main channel is a
 * scaffold — the reference answer forced up to the frontier, so the policy itself must take the
 * step where its attempts break (and is trained on it in the unhinted context). Strength 1
 * scaffolds exactly what the attempts already got right; each further strength reveals one more
 * character; nothing reveals more than maxReveal of the answer. A process hint (the carry into
 * the breaking digit, the answer's length, an op the program uses) goes in the hint slot when the
 * cause calls for it or the scaffold would be empty.
 */
export function instruct(
  d: MentorDiagnosis,
  problem: Problem,
  strength: number,
  opts: InstructorOptions = DEFAULT_INSTRUCTOR,
  chance?: Rng,
): Lesson | null {
  if (isWorkedProblem(problem)) {
    const source = opts.source ?? 'diagnosis';
    if (source === 'teacher') return teacherWorking(problem);
    if (source === 'random-step') {
      if (!chance) throw new Error('instruct: a random step needs a source of chance');
      return randomStep(d, problem, strength, chance);
    }
    return instructWorked(d, problem, strength);
  }
  const n = problem.answer.length;
  const cap = Math.min(n - 1, Math.floor(opts.maxReveal * n));
  if (opts.channel === 'demonstrate') {
    // Through the breaking step at strength 1, one more character per further strength.
    const shown = Math.max(1, Math.min(cap, d.frontier + strength));
    if (cap < 1) return null;
    return {
      hint: { kind: 'prefix', text: problem.answer.slice(0, shown) },
      revealed: shown / n,
      hintTakenOut: true,
    };
  }
  let k = Math.max(0, Math.min(cap, d.frontier + strength - 1));
  let hint = opts.processHints ? processHint(d, problem, k, opts.familyHints) : undefined;
  // Nothing right yet and no process hint for this cause: the smallest help is the first character.
  if (k === 0 && !hint) k = Math.min(1, cap);
  if (hint && (k + revealedFraction(problem, hint) * n) / n > opts.maxReveal) hint = undefined;
  if (k === 0 && !hint) return null;
  const scaffold = k > 0 ? problem.answer.slice(0, k) : undefined;
  const revealed = (k + (hint ? revealedFraction(problem, hint) * n : 0)) / n;
  return {
    ...(hint ? { hint } : {}),
    ...(scaffold ? { scaffold } : {}),
    revealed,
    hintTakenOut: hint !== undefined && scaffold !== undefined,
  };
}

/**
 * Teach, don't tell, where the policy writes working (worked): the scaffold repeats the working
 * the group's own attempts wrote right and adds the mark the broken step calls for — "," where
 * they stopped a column short, the row's own end where they ran past it or wrote the wrong mark —
 * leaving the step itself to the policy; the hint slot says how many columns a row has where the
 * attempts wrote none, the wrong number or the wrong format, and from strength 2 on always. It
 * states nothing of the reference answer, and no channel or reveal cap changes that.
 */
function instructWorked(
  d: MentorDiagnosis,
  problem: WorkedProblem,
  strength: number,
): Lesson | null {
  let scaffold = d.ownWorking ?? '';
  if (d.cause === 'length') scaffold += nextMark(problem.data, scaffold);
  const shape = d.cause === 'no-working' || d.cause === 'length' || d.cause === 'format';
  const hint: Hint | undefined =
    shape || strength >= 2 ? { kind: 'steps', steps: problem.data.a.length } : undefined;
  return workedLesson(hint, scaffold);
}

/**
 * The diagnosis replaced by chance: the group's right working cut after a random column (from
 * none to all of it), the mark to go on after it, the number of columns told at strength 2 and
 * up as the mentor does and at random at strength 1.
 */
function randomStep(
  d: MentorDiagnosis,
  problem: WorkedProblem,
  strength: number,
  chance: Rng,
): Lesson | null {
  const right = d.ownWorking ?? '';
  const ends = columnEnds(right);
  const cut = chance.int(0, ends.length);
  const kept = cut === 0 ? '' : right.slice(0, ends[cut - 1]);
  const scaffold = kept + nextMark(problem.data, kept);
  const hint: Hint | undefined =
    strength >= 2 || chance.chance(0.5)
      ? { kind: 'steps', steps: problem.data.a.length }
      : undefined;
  return workedLesson(hint, scaffold);
}

function workedLesson(hint: Hint | undefined, scaffold: string): Lesson | null {
  if (!hint && scaffold === '') return null;
  return {
    ...(hint ? { hint } : {}),
    ...(scaffold ? { scaffold } : {}),
    revealed: 0,
    hintTakenOut: hint !== undefined && scaffold !== '',
  };
}

/** The teacher's working, all of it, forced in the policy's own notation; the product is the policy's. */
function teacherWorking(problem: WorkedProblem): Lesson {
  const solution = ownSolution(problem);
  return {
    scaffold: solution.slice(0, solution.lastIndexOf(FINAL_MARK) + 1),
    revealed: 0,
    hintTakenOut: false,
  };
}

/**
 * The lesson as the trainer takes it: a retry, learned as the options say, whose scaffold (the
 * reference answer's start) is credited to the answers that pass.
 */
export function retryOf(lesson: Lesson, opts: InstructorOptions): Retry {
  const learn = opts.underHelp
    ? 'as-sampled'
    : opts.shapedLoss === 'whole'
      ? 'unhinted-shaped'
      : opts.shapedLoss === 'sampled'
        ? 'unhinted-shaped-drawn'
        : lesson.hintTakenOut
          ? 'unhinted-reweighted'
          : 'as-sampled';
  return {
    kind: 'retry',
    ...(lesson.hint ? { hint: lesson.hint } : {}),
    ...(lesson.scaffold ? { scaffold: lesson.scaffold, creditScaffold: true } : {}),
    learn,
  };
}

function processHint(
  d: MentorDiagnosis,
  problem: Problem,
  scaffolded: number,
  familyHints: boolean,
): Hint | undefined {
  // Where the answers stop wrongly, never end or are not answers at all: how long the answer is.
  if (
    d.cause === 'length' ||
    d.cause === 'format' ||
    d.cause === 'no-end' ||
    d.cause === 'alphabet'
  )
    return { kind: 'length', length: problem.answer.length };
  if (!familyHints) return undefined;
  if (isArithmeticProblem(problem)) {
    // The carry out of every column before the breaking digit — the one input of that digit that
    // comes from the step before: "a carry comes in here", not the digit.
    if (d.frontier > 0)
      return { kind: 'carries', carries: problem.data.carries.slice(0, d.frontier) };
    // Breaking on the first digit, where any scaffold gives that digit away: the carry out of the
    // units column says something about it without stating it.
    return scaffolded === 0
      ? { kind: 'carries', carries: problem.data.carries.slice(0, 1) }
      : undefined;
  }
  // With nothing scaffolded, name one op the program uses — one after the breaking step where
  // there is one, so the hint is not the step itself.
  if (scaffolded > 0 || !getFamily(problem.family).hintKinds.includes('uses')) return undefined;
  return { kind: 'uses', ops: problem.answer[Math.min(d.frontier + 1, problem.answer.length - 1)] };
}
