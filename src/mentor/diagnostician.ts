import type { ScoredGroup } from '../rl/intervention.ts';
import type {
  ArithmeticFeedback,
  ListlangFeedback,
  ListlangProblem,
  Problem,
} from '../tasks/index.ts';
import { mode, ordinal } from './count.ts';
import type { MentorDiagnosis } from './diagnosis.ts';

/**
 * The Diagnostician: reads a failed group's verifier feedback and the reference solution, and
 * names the root cause, where the attempts break (the frontier), the evidence, and a confidence
 * (the share of attempts that break that way).
 */
export function diagnose(group: ScoredGroup): MentorDiagnosis {
  return group.problem.family === 'arithmetic'
    ? diagnoseArithmetic(group)
    : diagnoseListlang(group);
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

/** Ops an attempt shares with the closest reference program, from the start. */
function sharedPrefix(answer: string, problem: ListlangProblem): number {
  let best = 0;
  for (const ref of problem.data.references) {
    let i = 0;
    while (i < ref.length && i < answer.length && ref[i] === answer[i]) i++;
    best = Math.max(best, i);
  }
  return best;
}

function diagnoseListlang(group: ScoredGroup): MentorDiagnosis {
  const problem = group.problem as Extract<Problem, { family: 'listlang' }>;
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
  const prefixes = group.attempts.map((a) => sharedPrefix(a.answer, problem));
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
