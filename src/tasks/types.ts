import type { CustomFeedback, CustomProblem } from './custom/custom-problem.ts';
import type { REGISTRY } from './registry.ts';
import type { Rng } from './rng.ts';

export type { FamilyId } from './registry.ts';
/** A family's id: a shipped one, or a loaded task module's. */
export type TaskId =
  import('./registry.ts').FamilyId | import('./custom/custom-problem.ts').CustomTaskId;
export type { CustomFeedback, CustomProblem, CustomTaskId } from './custom/custom-problem.ts';

/**
 * One problem. Plain data (structured-cloneable), so it crosses worker boundaries as it is.
 * `data` holds the family's reference solution with its intermediate steps.
 */
export interface ProblemOf<F extends string, D> {
  readonly family: F;
  readonly level: number;
  /** The problem as the policy reads it, before the hint slot. */
  readonly text: string;
  /** The reference answer exactly as the policy should write it (without the end token). */
  readonly answer: string;
  readonly data: D;
}

type RegisteredFamily = (typeof REGISTRY)[keyof typeof REGISTRY]['family'];
/**
 * A problem of any family, shipped or loaded (a task module); switch on `family` to read its
 * `data`.
 */
export type Problem = Parameters<RegisteredFamily['verify']>[0] | CustomProblem;
/** Structured, family-specific feedback; switch on `family`, then `kind`. */
export type Feedback = ReturnType<RegisteredFamily['verify']>['feedback'] | CustomFeedback;

export interface Verdict<F extends { readonly family: string } = Feedback> {
  /** In [0, 1]; the shipped families score exact success 1 and anything else 0. */
  readonly reward: number;
  readonly feedback: F;
  /**
   * Set where the verifier itself failed on this answer (a task module's verify threw, or
   * returned no number in [0, 1]): the answer scores 0 and the trainer reports it as an event.
   */
  readonly fault?: string;
}

/**
 * The hint language. Each kind renders as a one-character tag and a payload (hint-syntax.ts).
 * `length`, `prefix`: both families (answer characters); `carries`: arithmetic; `uses`: listlang;
 * `steps`: worked;
 * `critique`: both, made from a failed attempt (critique.ts).
 */
export type Hint =
  /** The answer has this many characters (digits, or ops). */
  | { readonly kind: 'length'; readonly length: number }
  /** The answer starts with this text (digits in writing order, or the first ops). */
  | { readonly kind: 'prefix'; readonly text: string }
  /** Carry (or borrow) out of the first columns, one digit per column in writing order. */
  | { readonly kind: 'carries'; readonly carries: string }
  /** The working has this many steps (worked: columns); the answer's characters unstated. */
  | { readonly kind: 'steps'; readonly steps: number }
  /** The program uses these ops (a multiset, sorted; order in the program unknown). */
  | { readonly kind: 'uses'; readonly ops: string }
  /**
   * A failed attempt quoted back with the first wrong character marked (its index; null: only
   * that it is wrong). Made from an attempt by critiqueOf, never by makeHint.
   */
  | { readonly kind: 'critique'; readonly attempt: string; readonly wrongAt: number | null };
export type HintKind = Hint['kind'];

/** A teacher's notation of the working: the policy's own, or another (TaskFamily.teacherSolution). */
export type TeacherFormat = 'own' | 'other';

/** 1 = minimal … 3 = detailed. */
export type Strength = 1 | 2 | 3;

export interface Levels {
  readonly min: number;
  readonly max: number;
}

export interface TaskFamily<
  P extends ProblemOf<string, unknown> = Problem,
  F extends { readonly family: string } = Feedback,
> {
  readonly id: P['family'];
  /** The difficulty knob: integer levels, both ends included. */
  readonly levels: Levels;
  /** Every character an answer may contain, so a trainer may mask the rest if it wants. */
  readonly answerChars: string;
  /** The hint kinds makeHint gives for this family (a critique, which needs an attempt, aside). */
  readonly hintKinds: readonly HintKind[];
  /** Seeded and reproducible: the same level and rng state give the same problem. */
  sample(level: number, rng: Rng): P;
  /** Never throws, whatever the string. */
  verify(problem: P, answer: string): Verdict<F>;
  /**
   * Where the reference is not all the policy writes (a family whose answer is not the work): a
   * right answer written out, working and all, by the family's own solver — the teacher. `own` is
   * the notation the base learned (what a warm-up teaches and a critique is measured against),
   * `other` the same working in another notation, as a stronger model's style differs from the
   * learner's. A method that shows it to the policy is using a teacher (teacher tokens). Absent:
   * the reference answer is the whole of it, in either notation.
   */
  teacherSolution?(problem: P, format: TeacherFormat): string;
  /**
   * With working before the answer: the part of a written text that states the final answer, or
   * null where the text has not reached it (a scaffold of working). What the reference ledger
   * counts. Absent: all of the text.
   */
  statedAnswer?(written: string): string | null;
  /**
   * With working before the answer: where an attempt's first broken step is in its text, `at`
   * its start and `end` its end, found from the problem and the attempt alone (never from a
   * reference) — where a critique marks it, and how much of a long attempt it quotes. Null for a
   * right attempt, or working so far with nothing wrong. Absent: the first character that starts
   * no right answer.
   */
  brokenStep?(problem: P, attempt: string): { at: number; end: number } | null;
  /**
   * Tokens in the longest sequence at this level: begin, prompt with the longest hint makeHint
   * gives, the reference answer, end. A model context of maxTokens(levels.max) covers them all.
   */
  maxTokens(level: number): number;
}
