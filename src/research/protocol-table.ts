// The protocol's table (docs/protocol.md): per method the medians to 0.5 and 0.8 in steps and in
// sampled tokens, each rival's ratio to the reference method (the mentor) with its paired bootstrap
// interval and sign test, final accuracy, AUC and easy-level retention with intervals, and compute.
import {
  BOOTSTRAP_RESAMPLES,
  BOOTSTRAP_SEED,
  meanOf,
  meanInterval,
  pairedRatioInterval,
  signTest,
  type Interval,
} from './paired-stats.ts';
import { median } from '../platform/median.ts';
import type { CeilingPoint } from './ceiling.ts';
import type { RunRecord } from './results.ts';

/** One run's figures, a never as Infinity; compute counted from the jump on. */
export interface RunFigures {
  seed: number;
  stepsToHalf: number;
  stepsTo08: number;
  /**
   * Tokens sampled from the jump through the step that reached 0.5, with the teacher's tokens
   * where the table counts them (ProtocolTableInput.teacher); null in runs that did not count them.
   */
  tokensToHalf: number | null;
  tokens: number | null;
  rollouts: number | null;
  /** Reference characters its help showed from the jump on; null in runs that did not count them. */
  referenceChars: number | null;
  /** Teacher tokens its help showed or taught from the jump on; null in runs that did not count them. */
  teacherTokens: number | null;
  final: number;
  auc: number;
  easyEnd: number | null;
  easyLowest: number | null;
  wallS: number;
}

const never = (x: number | null) => x ?? Infinity;

/** `teacher`: compute is sampled + teacher tokens (a family whose worked solutions need one). */
export function runFigures(run: RunRecord, jump: number, teacher = false): RunFigures {
  const s = run.summary;
  const after = run.steps.filter((p) => p.step >= jump);
  const taught = after.every((p) => p.teacher_tokens !== undefined);
  const counted = after.every((p) => p.sampled_tokens !== undefined) && (taught || !teacher);
  const ledgered = after.every((p) => p.reference_chars !== undefined);
  const sum = (pick: (p: (typeof after)[number]) => number | undefined, upTo = Infinity) =>
    after.filter((p) => p.step - jump + 1 <= upTo).reduce((n, p) => n + (pick(p) ?? 0), 0);
  const half = never(s.steps_to_half);
  return {
    seed: run.seed,
    stepsToHalf: half,
    stepsTo08: never(s.steps_to_recovery),
    tokensToHalf: !counted
      ? null
      : half === Infinity
        ? Infinity
        : sum((p) => (p.sampled_tokens ?? 0) + (teacher ? (p.teacher_tokens ?? 0) : 0), half),
    tokens: counted ? sum((p) => p.sampled_tokens) : null,
    rollouts: counted ? sum((p) => p.rollouts) : null,
    referenceChars: ledgered ? sum((p) => p.reference_chars) : null,
    teacherTokens: taught ? sum((p) => p.teacher_tokens) : null,
    final: s.final_eval_accuracy ?? 0,
    auc: s.eval_auc ?? 0,
    easyEnd: s.final_prev_eval_accuracy,
    easyLowest: s.lowest_prev_eval_accuracy,
    wallS: s.wall_s,
  };
}

/** The supervised reference's row name in the protocol's table. */
export const SUPERVISED_ROW = 'supervised';

/**
 * A supervised run (the ceiling: the learner handed every example's answer) in the protocol's
 * units: its updates to each threshold, nothing sampled, every taught answer in the ledger and,
 * where `teacher`, every taught solution in its compute.
 */
export function supervisedFigures(
  seed: number,
  points: readonly CeilingPoint[],
  wallS: number,
  teacher = false,
): RunFigures {
  const at = (t: number) => points.find((p) => p.hard >= t);
  const to = (t: number) => at(t)?.step ?? Infinity;
  const after = points.filter((p) => p.step > 0);
  const last = points[points.length - 1];
  const half = to(0.5);
  const teacherToHalf = teacher ? (at(0.5)?.teacherChars ?? null) : 0;
  return {
    seed,
    stepsToHalf: half,
    stepsTo08: to(0.8),
    tokensToHalf: half === Infinity ? Infinity : teacherToHalf,
    tokens: 0,
    rollouts: 0,
    referenceChars: last.referenceChars ?? null,
    teacherTokens: last.teacherChars ?? null,
    final: last.hard,
    auc: meanOf(after.map((p) => p.hard)),
    easyEnd: last.easy,
    easyLowest: after.length ? Math.min(...after.map((p) => p.easy)) : null,
    wallS,
  };
}

/** Seeds both methods ran, in order, with each method's figures on them. */
function paired(a: readonly RunFigures[], b: readonly RunFigures[]): [RunFigures[], RunFigures[]] {
  const bySeed = new Map(b.map((f) => [f.seed, f]));
  const common = a.filter((f) => bySeed.has(f.seed)).sort((x, y) => x.seed - y.seed);
  return [common, common.map((f) => bySeed.get(f.seed) as RunFigures)];
}

const present = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null);

function fmtSteps(x: number): string {
  return x === Infinity ? 'never' : Number.isInteger(x) ? String(x) : x.toFixed(1);
}

/** A count, in thousands or millions from 1,000 on (tokens, answers, characters); never where a run did not get there. */
function fmtTokens(x: number): string {
  if (x === Infinity) return 'never';
  if (!Number.isFinite(x)) return '–';
  if (x < 1e3) return String(Math.round(x));
  return x >= 1e6 ? `${(x / 1e6).toFixed(2)}M` : `${(x / 1e3).toFixed(0)}k`;
}

function fmtRatio(x: number): string {
  return x === Infinity ? '∞' : Number.isFinite(x) ? `${x.toFixed(2)}×` : '–';
}

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '–');

function fmtInterval(i: Interval, f: (x: number) => string): string {
  return `${f(i.value)} [${f(i.lo)}, ${f(i.hi)}]`;
}

/** A median, and how many runs never got there where some did not: "20 (1/5 never)", "never (5/5)". */
function medianWithNevers(xs: readonly number[], f: (x: number) => string): string {
  const m = median(xs);
  const n = xs.filter((x) => x === Infinity).length;
  if (n === 0) return f(m);
  return `${f(m)} (${n}/${xs.length}${m === Infinity ? '' : ' never'})`;
}

/** The ratio of this method's medians to the reference's on the seeds both ran, and its interval. */
function ratioCell(
  a: readonly RunFigures[],
  b: readonly RunFigures[],
  pick: (f: RunFigures) => number | null,
): string {
  const [pa, pb] = paired(a, b);
  if (pa.length === 0 || pa.some((f) => pick(f) === null) || pb.some((f) => pick(f) === null))
    return '–';
  return fmtInterval(
    pairedRatioInterval(
      pa.map((f) => pick(f) as number),
      pb.map((f) => pick(f) as number),
    ),
    fmtRatio,
  );
}

export interface ProtocolTableInput {
  runs: readonly RunRecord[];
  methods: readonly string[];
  /** The method every other is divided by (the mentor), or null for no ratios. */
  reference: string | null;
  /** The step of the jump: compute is counted from it. */
  jump: number;
  /** The rivals the best one is chosen from (docs/protocol.md); none given, no best rival named. */
  rivals?: readonly string[];
  /** The supervised reference's runs (supervisedFigures), a row after the methods where given. */
  supervised?: readonly RunFigures[];
  /**
   * The family's worked solutions need a teacher (docs/protocol.md, Amendment 2): compute to 0.5
   * is sampled + teacher tokens (runFigures's `teacher`), and the teacher's tokens get a column.
   */
  teacher?: boolean;
}

/**
 * The protocol's best rival among `rivals` that ran: the lowest median tokens to 0.5 (sampled, and
 * the teacher's where counted), ties broken by the median steps to 0.5, then by the higher mean
 * final accuracy; null where none ran.
 */
export function bestRival(
  figures: ReadonlyMap<string, readonly RunFigures[]>,
  rivals: readonly string[],
): string | null {
  const key = (fs: readonly RunFigures[]) => [
    median(fs.map((f) => never(f.tokensToHalf))),
    median(fs.map((f) => f.stepsToHalf)),
    -meanOf(fs.map((f) => f.final)),
  ];
  const ran = rivals.filter((m) => (figures.get(m)?.length ?? 0) > 0);
  const keyed = ran.map((m) => ({ m, k: key(figures.get(m) as RunFigures[]) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < a.k.length; i++) if (a.k[i] !== b.k[i]) return a.k[i] < b.k[i] ? -1 : 1;
    return 0;
  });
  return keyed[0]?.m ?? null;
}

/**
 * Why these runs cannot name the protocol's best rival, or null where they can: it is chosen from
 * every rival form on the same seeds, each run's sampled tokens counted.
 */
function bestRivalGap(
  figures: ReadonlyMap<string, readonly RunFigures[]>,
  rivals: readonly string[],
): string | null {
  const missing = rivals.filter((m) => (figures.get(m)?.length ?? 0) === 0);
  if (missing.length > 0) return `${missing.join(', ')} did not run in this table`;
  const seeds = (m: string) =>
    (figures.get(m) as RunFigures[])
      .map((f) => f.seed)
      .sort((x, y) => x - y)
      .join(',');
  if (new Set(rivals.map(seeds)).size > 1) return 'the rivals ran on different seeds';
  if (rivals.some((m) => figures.get(m)?.some((f) => f.tokensToHalf === null)))
    return 'some of their runs did not count sampled tokens';
  return null;
}

/** The line that names the best rival, and whether the reference is ahead of it at matched compute. */
function bestRivalLine(
  figures: ReadonlyMap<string, readonly RunFigures[]>,
  rivals: readonly string[],
  reference: string,
  compute: string,
): string {
  const gap = bestRivalGap(figures, rivals);
  if (gap !== null)
    return `The protocol's best rival is not named here: ${gap} (it is chosen from ${rivals.join(', ')}, on the same seeds).`;
  const best = bestRival(figures, rivals) as string;
  const rule = `the lowest median ${compute} to 0.5; ties: the median steps to 0.5, then final accuracy`;
  const named = `Best rival by the protocol's rule (${rule}): **${best}**.`;
  const [pa, pb] = paired(figures.get(best) ?? [], figures.get(reference) ?? []);
  const tokens = (fs: RunFigures[]) => fs.map((f) => f.tokensToHalf);
  if (pa.length === 0 || tokens(pb).some((x) => x === null)) return named;
  const ratio = pairedRatioInterval(tokens(pa) as number[], tokens(pb) as number[]);
  const ahead = ratio.lo > 1;
  return `${named} Its ${compute} to 0.5 ÷ ${reference}'s: ${fmtInterval(ratio, fmtRatio)}, so ${reference} is ${ahead ? '' : 'not '}measurably ahead of it at matched compute (the interval's lower bound ${ahead ? 'above' : 'not above'} 1).`;
}

/** The protocol's table and the line that says how to read it. */
export function protocolMarkdown(t: ProtocolTableInput): string {
  const figures = new Map(
    t.methods.map((m) => [
      m,
      t.runs.filter((r) => r.method === m).map((r) => runFigures(r, t.jump, t.teacher)),
    ]),
  );
  const rowNames = t.supervised ? [...t.methods, SUPERVISED_ROW] : t.methods;
  if (t.supervised) figures.set(SUPERVISED_ROW, [...t.supervised]);
  const ref = t.reference === null ? null : (figures.get(t.reference) ?? null);
  const ratioHead = t.reference ? ` ÷ ${t.reference}` : '';
  const compute = t.teacher ? 'sampled + teacher tokens' : 'sampled tokens';
  const head = [
    'method',
    'seeds',
    'steps to 0.5 (median)',
    `steps to 0.5${ratioHead} [95% CI]`,
    `${t.reference ?? 'reference'} sooner (sign test)`,
    'steps to 0.8 (median)',
    `steps to 0.8${ratioHead} [95% CI]`,
    `${compute} to 0.5 (median)`,
    `tokens to 0.5${ratioHead} [95% CI]`,
    'final accuracy [95% CI]',
    'AUC [95% CI]',
    'easy level at the end [95% CI]',
    'lowest easy level',
    'sampled tokens after the jump (median)',
    'rollouts after the jump (median)',
    'reference characters shown after the jump (median)',
    ...(t.teacher ? ['teacher tokens after the jump (median)'] : []),
    'wall time (median)',
  ];
  const rows = rowNames.map((m) => {
    const fs = figures.get(m) ?? [];
    const isRef = m === t.reference || ref === null;
    const col = (pick: (f: RunFigures) => number) => fs.map(pick);
    const half = col((f) => f.stepsToHalf);
    const s08 = col((f) => f.stepsTo08);
    const tokens = present(fs.map((f) => f.tokensToHalf));
    const sign = () => {
      const [pa, pb] = paired(fs, ref as RunFigures[]);
      const s = signTest(
        pa.map((f) => f.stepsToHalf),
        pb.map((f) => f.stepsToHalf),
      );
      return `${s.bLower}/${s.differing}, p = ${s.p < 0.001 ? s.p.toExponential(1) : s.p.toFixed(3)}`;
    };
    const easy = present(fs.map((f) => f.easyEnd));
    const lowest = present(fs.map((f) => f.easyLowest));
    const computeMedian = (xs: (number | null)[]) => {
      const p = present(xs);
      return p.length === fs.length && p.length > 0 ? fmtTokens(median(p)) : '–';
    };
    return [
      m,
      String(fs.length),
      medianWithNevers(half, fmtSteps),
      isRef ? '–' : ratioCell(fs, ref as RunFigures[], (f) => f.stepsToHalf),
      isRef ? '–' : sign(),
      medianWithNevers(s08, fmtSteps),
      isRef ? '–' : ratioCell(fs, ref as RunFigures[], (f) => f.stepsTo08),
      tokens.length === fs.length && fs.length > 0 ? medianWithNevers(tokens, fmtTokens) : '–',
      isRef ? '–' : ratioCell(fs, ref as RunFigures[], (f) => f.tokensToHalf),
      fmtInterval(meanInterval(col((f) => f.final)), pct),
      fmtInterval(meanInterval(col((f) => f.auc)), pct),
      easy.length ? fmtInterval(meanInterval(easy), pct) : '–',
      lowest.length ? pct(Math.min(...lowest)) : '–',
      computeMedian(fs.map((f) => f.tokens)),
      computeMedian(fs.map((f) => f.rollouts)),
      computeMedian(fs.map((f) => f.referenceChars)),
      ...(t.teacher ? [computeMedian(fs.map((f) => f.teacherTokens))] : []),
      fs.length ? `${(median(col((f) => f.wallS)) / 60).toFixed(1)} min` : '–',
    ];
  });
  const table = [
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
  const how = t.reference
    ? `Ratios: the method's median ÷ ${t.reference}'s (above 1: ${t.reference} sooner), on the seeds both ran, with a paired bootstrap 95% CI (${BOOTSTRAP_RESAMPLES.toLocaleString('en')} resamples of the seeds, seed ${BOOTSTRAP_SEED}); a run that never reached a threshold counts as never (∞), never against never as a tie. Sign test: seeds where ${t.reference} reached 0.5 sooner, of the seeds where the two differ; two-sided exact p. `
    : '';
  const best =
    t.reference && t.rivals ? bestRivalLine(figures, t.rivals, t.reference, compute) : '';
  const supervised = t.supervised
    ? ` The ${SUPERVISED_ROW} row is the reference handed over: the base fine-tuned on the answers of a batch a step (the supervised ceiling), from the jump, measured on the same evals; it samples nothing.`
    : '';
  return `${table}\n\n${how}${best ? `${best} ` : ''}Means with bootstrap 95% CIs over seeds; compute counted from the jump on (every round's answers and the base's distillation answers; ${t.teacher ? "a written solution costs its teacher's tokens, its characters" : 'a written answer costs none'}); reference characters: what the help put in front of the policy of the reference answers (or of written answers), once per group and help (the reference ledger).${supervised} docs/protocol.md says why.`;
}
