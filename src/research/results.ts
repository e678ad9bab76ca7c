import { median } from '../platform/median.ts';
import {
  EARLY_STEPS,
  lastChangeStep,
  retentionAndRescue,
  type EvalPoint,
  type RunSummary,
} from './summary.ts';

/** One run's curves and summary, as read back from an experiment's JSONL. */
export interface RunRecord {
  method: string;
  seed: number;
  /** The flags the run was launched with; null in runs written before they were kept. */
  args: string[] | null;
  /**
   * The trainer's settings it ran with and the SHA-256 of the policy it started from; null in runs
   * written before they were kept.
   */
  config: unknown;
  baseSha256: string | null;
  /** The SHA-256 of a module method's file (npm run experiment --method <file>); else null. */
  methodSha256: string | null;
  /** The SHA-256 of a task module's file (--task <file>); else null. */
  taskSha256: string | null;
  steps: EvalPoint[];
  summary: RunSummary;
}

/** The `{"summary": …}` line of an experiment's JSONL, as written (`args` etc. since kept). */
type SummaryLine = RunSummary & {
  method: string;
  seed: number;
  args?: string[];
  config?: unknown;
  base_sha256?: string;
  method_sha256?: string;
  task_sha256?: string;
};

/** Parse an experiment JSONL file: step lines, then the `{"summary": …}` line. */
export function parseRun(text: string): RunRecord {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const steps: RunRecord['steps'] = [];
  let summary: SummaryLine | null = null;
  for (const line of lines) {
    const obj = JSON.parse(line) as Record<string, unknown>;
    if ('summary' in obj) summary = obj.summary as SummaryLine;
    else steps.push(obj as unknown as RunRecord['steps'][number]);
  }
  if (!summary) throw new Error('run has no summary line (unfinished?)');
  // Runs written before a figure was summarised get it from their steps.
  const { args, config, base_sha256, method_sha256, task_sha256, ...rest } = summary;
  const filled = { ...retentionAndRescue(steps, lastChangeStep(steps)), ...rest };
  return {
    method: summary.method,
    seed: summary.seed,
    args: args ?? null,
    config: config ?? null,
    baseSha256: base_sha256 ?? null,
    methodSha256: method_sha256 ?? null,
    taskSha256: task_sha256 ?? null,
    steps,
    summary: filled,
  };
}

export interface MethodRow {
  method: string;
  runs: number;
  finalMean: number;
  finalSd: number;
  /** Runs that reached the recovery threshold, and their steps to it. */
  recovered: number;
  recoverySteps: number[];
  halfSteps: number[];
  aucMean: number;
  lateMean: number;
  hintedMean: number;
  /** Mean of the runs' final easy-level accuracy (NaN when no run measured it). */
  retentionMean: number;
  /** Mean of the runs' early rescue rate (NaN when no run gave help). */
  rescueMean: number;
  /** Mean of the runs' final accuracy over every level trained at. */
  allMean: number;
  /** Lowest easy-level accuracy after the jump of any run. */
  lowestPrev: number;
}

function meanSd(xs: number[]): [number, number] {
  if (xs.length === 0) return [NaN, NaN];
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd =
    xs.length > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1)) : 0;
  return [m, sd];
}

export function methodRows(runs: readonly RunRecord[], methods: readonly string[]): MethodRow[] {
  return methods.map((method) => {
    const rs = runs.filter((r) => r.method === method);
    const [finalMean, finalSd] = meanSd(rs.map((r) => r.summary.final_eval_accuracy ?? 0));
    // A run summarised before a figure existed has none: counted as not getting there.
    const rec = present(rs.map((r) => r.summary.steps_to_recovery));
    const half = present(rs.map((r) => r.summary.steps_to_half));
    return {
      method,
      runs: rs.length,
      finalMean,
      finalSd,
      recovered: rec.length,
      recoverySteps: rec,
      halfSteps: half,
      aucMean: meanSd(rs.map((r) => r.summary.eval_auc ?? 0))[0],
      lateMean: meanSd(rs.map((r) => r.summary.late_eval_mean ?? 0))[0],
      hintedMean: meanSd(rs.map((r) => r.summary.mean_hinted_frac))[0],
      retentionMean: meanSd(present(rs.map((r) => r.summary.final_prev_eval_accuracy)))[0],
      rescueMean: meanSd(present(rs.map((r) => r.summary.early_rescue_rate)))[0],
      allMean: meanSd(present(rs.map((r) => r.summary.final_all_eval_accuracy)))[0],
      lowestPrev: Math.min(...present(rs.map((r) => r.summary.lowest_prev_eval_accuracy))),
    };
  });
}

/** The values a summary has (null: not reached; undefined: summarised before the figure existed). */
const present = (xs: (number | null | undefined)[]) =>
  xs.filter((x): x is number => typeof x === 'number');

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '–');

/** The protocol's median over all `of` runs (those that never got there as never), and the values. */
function steps(xs: number[], of: number): string {
  if (xs.length === 0) return `never (0/${of})`;
  const sorted = [...xs].sort((a, b) => a - b);
  const m = median([...sorted, ...Array<number>(of - xs.length).fill(Infinity)]);
  const shown = m === Infinity ? 'never' : Number.isInteger(m) ? String(m) : m.toFixed(1);
  return `median ${shown} (${xs.length}/${of}: ${sorted.join(', ')})`;
}

/** The recovery table (issue 6): one row per method, seed-averaged. */
export function resultsMarkdown(rows: readonly MethodRow[]): string {
  const head =
    `| method | final unhinted eval (mean ± sd) | steps to 0.8 | steps to 0.5 | mean eval after the jump (AUC) | mean eval, 2nd half | mean hinted_frac | helped groups rescued, first ${EARLY_STEPS} steps | easy level at the end | lowest easy level after the jump | all levels at the end |\n` +
    '|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|';
  const body = rows.map(
    (r) =>
      `| ${r.method} | ${pct(r.finalMean)} ± ${pct(r.finalSd)} | ${steps(r.recoverySteps, r.runs)} | ${steps(r.halfSteps, r.runs)} | ${pct(r.aucMean)} | ${pct(r.lateMean)} | ${pct(r.hintedMean)} | ${pct(r.rescueMean)} | ${pct(r.retentionMean)} | ${pct(r.lowestPrev)} | ${pct(r.allMean)} |`,
  );
  return [head, ...body].join('\n');
}
