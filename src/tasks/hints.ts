import { critiqueHolds, markStates } from './critique.ts';
import { TaskError } from './errors.ts';
import { getFamily } from './registry.ts';
import { parseHintWith, type HintParse } from './hint-syntax.ts';
import type { Rng } from './rng.ts';
import { isArithmeticProblem, isWorkedProblem } from './shipped-problems.ts';
import type { Hint, HintKind, Problem, Strength, TaskId } from './types.ts';

export { CRITIQUE_MARK, MAX_HINT_PAYLOAD, renderHint, type HintParse } from './hint-syntax.ts';

/** Text (as in the hint slot) → a hint of `family`, or the reason it is malformed. */
export function parseHint(family: TaskId, text: string): HintParse {
  const f = getFamily(family);
  const kinds = [...f.hintKinds, 'critique' as const];
  return parseHintWith({ family, kinds, answerChars: f.answerChars }, text);
}

/**
 * The share of the reference answer's characters a hint states outright, which is what a
 * re-attempt can copy: a prefix of k of n characters k/n, m of n ops (in unknown order) m/n;
 * a critique the k characters it says are right, k/n (of them, where working comes first, only
 * the final answer's: markStates); length, steps and carries state none (they
 * constrain the answer without spelling it).
 */
export function revealedFraction(problem: Problem, hint: Hint): number {
  const n = problem.answer.length;
  if (hint.kind === 'prefix') return Math.min(hint.text.length, n) / n;
  if (hint.kind === 'uses') return Math.min(hint.ops.length, n) / n;
  if (hint.kind === 'critique') return markStates(problem, hint.attempt, hint.wrongAt ?? 0) / n;
  return 0;
}

/**
 * 1 (minimal) … 3 (detailed): a length is 1; a prefix, carry pattern or op set by how much of
 * the whole it shows — up to a third 1, up to two thirds 2, more 3.
 */
export function hintStrength(problem: Problem, hint: Hint): Strength {
  switch (hint.kind) {
    case 'length':
    case 'steps':
      return 1;
    case 'prefix':
      return shareStrength(hint.text.length, problem.answer.length);
    case 'uses':
      return shareStrength(hint.ops.length, problem.answer.length);
    case 'carries':
      return shareStrength(hint.carries.length, carriesOf(problem).length);
    case 'critique':
      return shareStrength(hint.wrongAt ?? 0, problem.answer.length);
  }
}

/** Whether the hint is true of the problem's reference answer. */
export function hintHolds(problem: Problem, hint: Hint): boolean {
  const ref = problem.answer;
  switch (hint.kind) {
    case 'length':
      return hint.length === ref.length;
    case 'steps':
      return isWorkedProblem(problem) && hint.steps === problem.data.a.length;
    case 'prefix':
      return ref.startsWith(hint.text);
    case 'carries':
      return isArithmeticProblem(problem) && problem.data.carries.startsWith(hint.carries);
    case 'uses': {
      const left = [...ref];
      for (const op of hint.ops) {
        const i = left.indexOf(op);
        if (i < 0) return false;
        left.splice(i, 1);
      }
      return true;
    }
    case 'critique':
      return critiqueHolds(problem, hint);
  }
}

/**
 * A true hint of this kind and strength for the problem, random where several exist (which
 * prefix length, which ops), or null when the problem has none: no hint states the whole answer,
 * so a one-character answer has no prefix or uses hint, and a length is only ever strength 1.
 */
export function makeHint(
  problem: Problem,
  kind: HintKind,
  strength: Strength,
  rng: Rng,
): Hint | null {
  if (!getFamily(problem.family).hintKinds.includes(kind)) {
    throw new TaskError(`${problem.family} has no ${kind} hints`);
  }
  const sizes = sizesFor(problem, kind, strength);
  return sizes.length > 0 ? build(problem, kind, rng.pick(sizes), rng) : null;
}

/** A random true hint: a kind (uniform over the family's kinds), then a strength it has, then a size. */
export function randomHint(problem: Problem, rng: Rng): Hint {
  const menu = getFamily(problem.family).hintKinds.map((kind) => ({
    kind,
    bySize: ([1, 2, 3] as const).map((s) => sizesFor(problem, kind, s)).filter((z) => z.length > 0),
  }));
  const { kind, bySize } = rng.pick(menu.filter((m) => m.bySize.length > 0)); // length always has one
  return build(problem, kind, rng.pick(rng.pick(bySize)), rng);
}

/** The sizes (characters or columns shown; for length, the length) a hint of this strength has. */
function sizesFor(problem: Problem, kind: HintKind, strength: Strength): number[] {
  const n = problem.answer.length;
  if (kind === 'length') return strength === 1 ? [n] : [];
  if (kind === 'steps')
    return strength === 1 && isWorkedProblem(problem) ? [problem.data.a.length] : [];
  const whole = kind === 'carries' ? carriesOf(problem).length : n;
  const most = kind === 'carries' ? whole : n - 1; // carries never spell the answer
  const sizes: number[] = [];
  for (let k = 1; k <= most; k++) if (shareStrength(k, whole) === strength) sizes.push(k);
  return sizes;
}

function build(problem: Problem, kind: HintKind, size: number, rng: Rng): Hint {
  const ref = problem.answer;
  switch (kind) {
    case 'length':
      return { kind, length: size };
    case 'steps':
      return { kind, steps: size };
    case 'prefix':
      return { kind, text: ref.slice(0, size) };
    case 'carries':
      return { kind, carries: carriesOf(problem).slice(0, size) };
    case 'uses':
      return {
        kind,
        ops: rng
          .shuffle([...ref])
          .slice(0, size)
          .sort()
          .join(''),
      };
    case 'critique':
      throw new TaskError('a critique is made from an attempt (critiqueOf), not by makeHint');
  }
}

/** The thirds rule: showing up to a third of a whole is strength 1, up to two thirds 2, more 3. */
export function shareStrength(shown: number, whole: number): Strength {
  if (3 * shown <= whole) return 1;
  if (3 * shown <= 2 * whole) return 2;
  return 3;
}

function carriesOf(problem: Problem): string {
  return isArithmeticProblem(problem) ? problem.data.carries : '';
}
