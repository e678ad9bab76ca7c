import type { ScoredGroup } from '../rl/intervention.ts';
import {
  familyEntry,
  type ArithmeticFeedback,
  type FamilyId,
  type ListlangFeedback,
  type ListlangProblem,
} from '../tasks/index.ts';
import { mode, ordinal } from './count.ts';
import type { MentorDiagnosis } from './diagnosis.ts';

/** Diagnosticians that read a family's own feedback; any other family is read by reference. */
const BY_FAMILY: { readonly [K in FamilyId]?: (group: ScoredGroup) => MentorDiagnosis } = {
  arithmetic: diagnoseArithmetic,
  listlang: diagnoseListlang,
};

/**
 * The Diagnostician: reads a failed group's verifier feedback and the reference solution, and
 * names the root cause, where the attempts break (the frontier), the evidence, and a confidence
 * (the share of attempts that break that way).
 */
export function diagnose(group: ScoredGroup): MentorDiagnosis {
  return (BY_FAMILY[group.problem.family] ?? diagnoseByReference)(group);
}

function result(d: Omit<MentorDiagnosis, 'confidence'>): MentorDiagnosis {
  return { ...d, confidence: d.attempts ? d.support / d.attempts : 0 };
}

function diagnoseArithmetic(group: ScoredGroup): MentorDiagnosis {
  const fb = group.attempts.map((a) => a.feedback as ArithmeticFeedback);
  const n = fb.length;
  const answerLength = group.problem.answer.length;
  const malformed = fb.filter((f) => f.kind === 'format').length;
  if (malformed * 2 > n) {
    return result({
      cause: 'format',
      frontier: 0,
      support: malformed,
      attempts: n,
      evidence: `${malformed} of ${n} answers are not a number`,
    });
  }
  const wrong = fb.filter(
    (f): f is Extract<ArithmeticFeedback, { kind: 'wrong' }> => f.kind === 'wrong',
  );
  if (wrong.length === 0) {
    return result({
      cause: 'unknown',
      frontier: 0,
      support: 0,
      attempts: n,
      evidence: 'no wrong answers to read',
    });
  }
  const breakAt = mode(wrong.map((f) => f.correctPrefix));
  const k = breakAt.value;
  const atK = wrong.filter((f) => f.correctPrefix === k);
  const digit = `${ordinal(k + 1)} digit`;
  const carried = atK.filter((f) => f.missedCarries.includes(k)).length;
  if (carried * 2 > atK.length) {
    return result({
      cause: 'missed-carry',
      frontier: k,
      support: carried,
      attempts: n,
      evidence: `${carried} of ${n} attempts drop the carry into the ${digit} (units first) after ${k} right digit${k === 1 ? '' : 's'}`,
    });
  }
  const short = atK.filter(
    (f) => f.gotLength !== f.expectedLength && k >= Math.min(f.gotLength, f.expectedLength),
  ).length;
  if (short * 2 > atK.length) {
    return result({
      cause: 'length',
      frontier: k,
      support: short,
      attempts: n,
      evidence: `${short} of ${n} attempts stop or run on at the ${digit}: the answer has ${answerLength} digits`,
    });
  }
  return result({
    cause: 'wrong-digit',
    frontier: k,
    support: atK.length,
    attempts: n,
    evidence: `${atK.length} of ${n} attempts get the ${digit} wrong after ${k} right digit${k === 1 ? '' : 's'}`,
  });
}

/** Characters an attempt shares with the closest of the reference answers, from the start. */
function sharedPrefix(answer: string, references: readonly string[]): number {
  let best = 0;
  for (const ref of references) {
    let i = 0;
    while (i < ref.length && i < answer.length && ref[i] === answer[i]) i++;
    best = Math.max(best, i);
  }
  return best;
}

function diagnoseListlang(group: ScoredGroup): MentorDiagnosis {
  const problem = group.problem as ListlangProblem;
  const fb = group.attempts.map((a) => a.feedback as ListlangFeedback);
  const n = fb.length;
  const syntax = fb.filter((f) => f.kind === 'parse-error' || f.kind === 'unknown-op').length;
  if (syntax * 2 > n) {
    return result({
      cause: 'format',
      frontier: 0,
      support: syntax,
      attempts: n,
      evidence: `${syntax} of ${n} programs do not parse`,
    });
  }
  const crashed = fb.filter(
    (f) => f.kind === 'runtime-error' || f.kind === 'fuel-exhausted',
  ).length;
  const prefixes = group.attempts.map((a) => sharedPrefix(a.answer, problem.data.references));
  const breakAt = mode(prefixes);
  const k = breakAt.value;
  const step = `${ordinal(k + 1)} op`;
  if (crashed * 2 > n) {
    return result({
      cause: 'runtime',
      frontier: k,
      support: crashed,
      attempts: n,
      evidence: `${crashed} of ${n} programs fail while running`,
    });
  }
  const lengthOff = group.attempts.filter(
    (a, i) => prefixes[i] === k && k >= Math.min(a.answer.length, problem.answer.length),
  ).length;
  if (lengthOff * 2 > breakAt.count) {
    return result({
      cause: 'length',
      frontier: k,
      support: lengthOff,
      attempts: n,
      evidence: `${lengthOff} of ${n} programs stop or run on after ${k} right op${k === 1 ? '' : 's'}: the program has ${problem.answer.length}`,
    });
  }
  return result({
    cause: 'wrong-op',
    frontier: k,
    support: breakAt.count,
    attempts: n,
    evidence: `${breakAt.count} of ${n} programs choose the wrong ${step} after ${k} right op${k === 1 ? '' : 's'}`,
  });
}

/**
 * For a family without a diagnostician of its own: where the attempts leave the reference answer,
 * and whether they stop early or run on there.
 */
export function diagnoseByReference(group: ScoredGroup): MentorDiagnosis {
  const { answer } = group.problem;
  const [one, many] = familyEntry(group.problem.family).answerUnit;
  const n = group.attempts.length;
  const prefixes = group.attempts.map((a) => sharedPrefix(a.answer, [answer]));
  const breakAt = mode(prefixes);
  const k = breakAt.value;
  const lengthOff = group.attempts.filter(
    (a, i) => prefixes[i] === k && k >= Math.min(a.answer.length, answer.length),
  ).length;
  if (lengthOff * 2 > breakAt.count) {
    return result({
      cause: 'length',
      frontier: k,
      support: lengthOff,
      attempts: n,
      evidence: `${lengthOff} of ${n} answers stop or run on after ${k} right ${k === 1 ? one : many}: the answer has ${answer.length}`,
    });
  }
  return result({
    cause: 'wrong-step',
    frontier: k,
    support: breakAt.count,
    attempts: n,
    evidence: `${breakAt.count} of ${n} answers get the ${ordinal(k + 1)} ${one} wrong after ${k} right ${k === 1 ? one : many}`,
  });
}
