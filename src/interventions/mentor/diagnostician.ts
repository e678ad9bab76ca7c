import type { ScoredGroup } from '../../rl/intervention.ts';
import {
  checkWorking,
  commonPrefix,
  COLUMN_MARK,
  describeCause,
  rowName,
  familyEntry,
  getFamily,
  isFamilyId,
  type ArithmeticFeedback,
  type FamilyId,
  type ListlangFeedback,
  type ListlangProblem,
  type StepCause,
  type WorkedProblem,
  type WorkingCheck,
} from '../../tasks/index.ts';
import { mode, ordinal } from './count.ts';
import type { Cause, MentorDiagnosis } from './diagnosis.ts';

/** Diagnosticians that read a family's own feedback; any other family is read generically. */
const BY_FAMILY: { readonly [K in FamilyId]?: (group: ScoredGroup) => MentorDiagnosis } = {
  arithmetic: diagnoseArithmetic,
  listlang: diagnoseListlang,
  worked: diagnoseWorked,
};

/**
 * The Diagnostician: reads a failed group's verifier feedback and the reference solution, and
 * names the root cause, where the attempts break (the frontier), the evidence, and a confidence
 * (the share of attempts that break that way).
 */
export function diagnose(group: ScoredGroup): MentorDiagnosis {
  const id = group.problem.family;
  return ((isFamilyId(id) && BY_FAMILY[id]) || diagnoseGeneric)(group);
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

/** How a broken column's cause reads as a mentor's cause. */
const STEP_CAUSE: Record<StepCause, Cause> = {
  format: 'format',
  swapped: 'format',
  'carry-in': 'missed-carry',
  product: 'wrong-step',
  'carry-out': 'wrong-step',
};

/** Groups of attempts that fail alike: the same kind, and for a broken column the same column and cause. */
function failureKey(c: WorkingCheck): string {
  switch (c.kind) {
    case 'step':
      return `step ${c.row} ${c.column} ${c.cause}`;
    case 'skipped':
    case 'extra':
      return `${c.kind} ${c.row}`;
    default:
      return c.kind;
  }
}

/**
 * Reads the policy's own working, never the reference: each failed attempt's columns checked
 * against the problem (checkWorking), the most common failure named with its column and cause,
 * and the working the attempts wrote right before it kept for a scaffold to repeat.
 */
function diagnoseWorked(group: ScoredGroup): MentorDiagnosis {
  const { data } = group.problem as WorkedProblem;
  const n = group.attempts.length;
  const failed = group.attempts
    .map((a) => ({ answer: a.answer, check: checkWorking(data, a.answer) }))
    .filter((f) => f.check.kind !== 'none');
  const byKey = new Map<string, typeof failed>();
  for (const f of failed) {
    const key = failureKey(f.check);
    const same = byKey.get(key);
    if (same) same.push(f);
    else byKey.set(key, [f]);
  }
  const most = [...byKey.values()].sort((a, b) => b.length - a.length)[0];
  if (!most) {
    return result({
      cause: 'unknown',
      frontier: 0,
      support: 0,
      attempts: n,
      evidence: 'no wrong answers to read',
    });
  }
  const { check, answer } = most[0];
  const s = most.length;
  const of = `${s} of ${n} attempts`;
  // Every column an attempt wrote right is the problem's own, so any of them spells the same start.
  const upTo = (at: number) => ({ frontier: at, ownWorking: answer.slice(0, at) });
  // Working that ends too soon: what was right, and the mark to go on is the instructor's.
  const stopped = (at: number, evidence: string) =>
    result({ cause: 'length', ...upTo(at), support: s, attempts: n, evidence });
  const ofRow = (row: number) => {
    const name = rowName(data, row);
    return name ? ` of ${name}` : '';
  };
  switch (check.kind) {
    case 'none': // filtered out above
    case 'no-working':
      return result({
        cause: 'no-working',
        frontier: 0,
        ownWorking: '',
        support: s,
        attempts: n,
        evidence: `${of} write no working before the product`,
      });
    case 'step':
      return result({
        cause: STEP_CAUSE[check.cause],
        ...upTo(check.at),
        support: s,
        attempts: n,
        evidence: `${of} ${describeCause(check.cause, data, check.row, check.column)}`,
      });
    case 'skipped':
      return stopped(
        check.at,
        check.written === 0
          ? `${of} stop before ${rowName(data, check.row) ?? 'the next row'}`
          : `${of} stop after ${check.written} of the ${check.needed} columns${ofRow(check.row)}`,
      );
    case 'rows':
      return stopped(
        check.at,
        `${of} write ${check.written} partial product${check.written === 1 ? '' : 's'} where the multiplier has ${check.needed} digits`,
      );
    case 'extra':
      return result({
        cause: 'length',
        frontier: check.at,
        // The right columns, without the mark that went on past them.
        ownWorking: answer.slice(0, Math.max(0, check.at - COLUMN_MARK.length)),
        support: s,
        attempts: n,
        evidence: `${of} write ${check.written} columns${ofRow(check.row)} where there are ${check.needed}`,
      });
    case 'copy':
      return result({
        cause: 'copy',
        ...upTo(check.at),
        support: s,
        attempts: n,
        evidence: `${of} write the working right but not the product it gives`,
      });
  }
}

/** Characters an attempt shares with the closest of the reference answers, from the start. */
function sharedPrefix(answer: string, references: readonly string[]): number {
  return Math.max(0, ...references.map((ref) => commonPrefix(answer, ref)));
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
  const frontier = frontierOf(group, problem.data.references);
  if (crashed * 2 > n) {
    return result({
      cause: 'runtime',
      frontier: frontier.k,
      support: crashed,
      attempts: n,
      evidence: `${crashed} of ${n} programs fail while running`,
    });
  }
  return lengthOrWrong(group, frontier, {
    answers: 'programs',
    whole: 'the program',
    unit: ['op', 'ops'],
    cause: 'wrong-op',
    wrong: (step) => `choose the wrong ${step}`,
  });
}

/**
 * For a family without a diagnostician of its own: where the attempts leave the reference answer,
 * and whether they stop early or run on there.
 */
export function diagnoseByReference(group: ScoredGroup): MentorDiagnosis {
  return lengthOrWrong(group, frontierOf(group, [group.problem.answer]), {
    answers: 'answers',
    whole: 'the answer',
    unit: familyEntry(group.problem.family).answerUnit,
    cause: 'wrong-step',
    wrong: (step) => `get the ${step} wrong`,
  });
}

/**
 * The task-agnostic Diagnostician (the `mentor-generic` method, and any family without one of its
 * own to read): from the answers alone, against the reference answer — most answers never end, or
 * use characters no answer of the family uses; else where they leave the reference, and whether
 * they stop early or run on there.
 */
export function diagnoseGeneric(group: ScoredGroup): MentorDiagnosis {
  const n = group.attempts.length;
  const { answerChars } = getFamily(group.problem.family);
  const f = frontierOf(group, [group.problem.answer]);
  const unended = group.attempts.filter((a) => !a.ended).length;
  if (unended * 2 > n)
    return result({
      cause: 'no-end',
      frontier: f.k,
      support: unended,
      attempts: n,
      evidence: `${unended} of ${n} answers never end: they run to the length limit`,
    });
  const foreign = group.attempts.flatMap((a) => {
    const c = [...a.answer].find((x) => !answerChars.includes(x));
    return c === undefined ? [] : [c];
  });
  if (foreign.length * 2 > n)
    return result({
      cause: 'alphabet',
      frontier: f.k,
      support: foreign.length,
      attempts: n,
      evidence: `${foreign.length} of ${n} answers use characters no answer uses (${[
        ...new Set(foreign),
      ]
        .slice(0, 3)
        .map((c) => JSON.stringify(c))
        .join(', ')})`,
    });
  return diagnoseByReference(group);
}

/** Where most attempts leave the closest reference (k characters right), and how many do. */
interface Frontier {
  k: number;
  count: number;
  prefixes: number[];
}

function frontierOf(group: ScoredGroup, references: readonly string[]): Frontier {
  const prefixes = group.attempts.map((a) => sharedPrefix(a.answer, references));
  const { value, count } = mode(prefixes);
  return { k: value, count, prefixes };
}

/** Words for a diagnosis read against references. */
interface Wording {
  answers: string;
  whole: string;
  unit: readonly [string, string];
  cause: Cause;
  /** What the attempts do wrong at the breaking step ("choose the wrong 2nd op"). */
  wrong(step: string): string;
}

/**
 * Most attempts run on past the answer's length (a policy that learned longer answers writing
 * them at an easier level): a length failure wherever they break, since the fix is to stop.
 * Otherwise, at the frontier: most attempts there stop early or run on (length), or take a wrong
 * step.
 */
function lengthOrWrong(group: ScoredGroup, f: Frontier, w: Wording): MentorDiagnosis {
  const n = group.attempts.length;
  const length = group.problem.answer.length;
  const { k } = f;
  const right = `${k} right ${k === 1 ? w.unit[0] : w.unit[1]}`;
  const long = group.attempts.filter((a) => a.answer.length > length).length;
  if (long * 2 > n) {
    return result({
      cause: 'length',
      frontier: k,
      support: long,
      attempts: n,
      evidence: `${long} of ${n} ${w.answers} run on past ${length} ${length === 1 ? w.unit[0] : w.unit[1]}: ${w.whole} has ${length}`,
    });
  }
  const lengthOff = group.attempts.filter(
    (a, i) => f.prefixes[i] === k && k >= Math.min(a.answer.length, length),
  ).length;
  if (lengthOff * 2 > f.count) {
    return result({
      cause: 'length',
      frontier: k,
      support: lengthOff,
      attempts: n,
      evidence: `${lengthOff} of ${n} ${w.answers} stop or run on after ${right}: ${w.whole} has ${length}`,
    });
  }
  return result({
    cause: w.cause,
    frontier: k,
    support: f.count,
    attempts: n,
    evidence: `${f.count} of ${n} ${w.answers} ${w.wrong(`${ordinal(k + 1)} ${w.unit[0]}`)} after ${right}`,
  });
}
