import { verifyAnswer } from './registry.ts';
import { CRITIQUE_CHARS, MAX_HINT_PAYLOAD } from './hint-syntax.ts';
import { commonPrefix } from './common-prefix.ts';
import { ownSolution } from './teacher-solution.ts';
import { statedAnswer } from './stated-answer.ts';
import { getFamily } from './registry.ts';
import type { Rng } from './rng.ts';
import { isListlangProblem } from './shipped-problems.ts';
import type { Hint, Problem } from './types.ts';

type Critique = Extract<Hint, { kind: 'critique' }>;

/**
 * The answers an attempt is measured against: listlang's known correct programs of the
 * reference's length (a wrong op is one that starts none of them), else the family's own solution
 * (the reference, or where the policy writes working, the working the family's solver writes).
 */
function correctAnswers(problem: Problem): readonly string[] {
  return isListlangProblem(problem) ? problem.data.references : [ownSolution(problem)];
}

/** How many of the attempt's first characters start some correct answer. */
export function rightPrefix(problem: Problem, attempt: string): number {
  return Math.max(0, ...correctAnswers(problem).map((ref) => commonPrefix(attempt, ref)));
}

/**
 * The reference characters a mark after the attempt's first k characters states to be right: all
 * k, or where the family writes working first, only those of the final answer among them.
 */
export function markStates(problem: Problem, attempt: string, k: number): number {
  return getFamily(problem.family).statedAnswer
    ? commonPrefix(statedAnswer(problem, attempt.slice(0, k)), problem.answer)
    : Math.min(k, problem.answer.length);
}

/**
 * Where the family reads steps (TaskFamily.brokenStep), an attempt's first broken step; an attempt
 * whose working so far is right but that stops is wrong at its end. Null for other families.
 */
function stepOf(problem: Problem, attempt: string): { at: number; end: number } | null {
  const f = getFamily(problem.family);
  if (!f.brokenStep) return null;
  return f.brokenStep(problem, attempt) ?? { at: attempt.length, end: attempt.length };
}

/** Where a critique marks an attempt as going wrong: its first broken step, or first wrong character. */
function markAt(problem: Problem, attempt: string): number {
  return stepOf(problem, attempt)?.at ?? rightPrefix(problem, attempt);
}

/**
 * A critique of a failed attempt, made from the verifier's side (Critique-GRPO's feedback in the
 * hint slot): the attempt quoted back, with the first wrong character marked — a wrong digit, a
 * wrong or unknown op, or the end of an attempt that stopped short; where the family reads steps,
 * the start of the first broken step, and an attempt too long for the slot quoted up to the end
 * of that step — unless the mark would state more than `maxReveal` of the answer, in which case
 * it only says the attempt is wrong. Null when there is nothing to criticise (the attempt is
 * right) or the slot cannot quote it (too long, or a character the slot cannot carry).
 */
export function critiqueOf(problem: Problem, attempt: string, maxReveal: number): Critique | null {
  if (verifyAnswer(problem, attempt).reward > 0) return null;
  if ([...attempt].some((c) => !CRITIQUE_CHARS.includes(c))) return null;
  const step = stepOf(problem, attempt);
  const k = step ? step.at : rightPrefix(problem, attempt);
  const marked = markStates(problem, attempt, k) <= Math.floor(maxReveal * problem.answer.length);
  const quoted =
    step && marked && attempt.length + 1 > MAX_HINT_PAYLOAD ? attempt.slice(0, step.end) : attempt;
  // An empty attempt can only be quoted as a mark.
  if (!marked && quoted.length === 0) return null;
  if (quoted.length + (marked ? 1 : 0) > MAX_HINT_PAYLOAD) return null;
  return { kind: 'critique', attempt: quoted, wrongAt: marked ? k : null };
}

/** Whether a critique is true: its attempt fails, and its mark is where the attempt goes wrong. */
export function critiqueHolds(problem: Problem, hint: Critique): boolean {
  if (verifyAnswer(problem, hint.attempt).reward > 0) return false;
  return hint.wrongAt === null || hint.wrongAt === markAt(problem, hint.attempt);
}

/**
 * A wrong answer of the kind a policy writes (for warm-ups that teach critiques): its own solution
 * up to a random point, then one wrong character and either the rest of it or random
 * characters — or the solution cut short. May happen to be right (listlang has other programs).
 */
export function nearMiss(problem: Problem, rng: Rng): string {
  const ref = ownSolution(problem);
  const chars = getFamily(problem.family).answerChars;
  const k = rng.int(0, ref.length - 1);
  if (k > 0 && rng.chance(0.2)) return ref.slice(0, k);
  const others = [...chars].filter((c) => c !== ref[k]);
  const tail = rng.chance(0.5)
    ? ref.slice(k + 1)
    : Array.from({ length: rng.int(0, ref.length - k) }, () => rng.pick([...chars])).join('');
  return ref.slice(0, k) + rng.pick(others) + tail;
}
