import type { LevelChange } from '../rl/level-schedule.ts';
import { mean } from '../rl/metrics.ts';
import type { LedgerRecord } from './rescue-bins.ts';

/** The part of a step's metrics a run summary reads. */
export interface EvalPoint {
  step: number;
  level: number;
  eval_accuracy?: number;
  all_fail_frac: number;
  hinted_frac: number;
  /** Greedy unhinted accuracy at the level before the last change (eval steps after it). */
  eval_accuracy_prev?: number;
  /** Share of the step's helped groups that hold a right answer. */
  rescue_rate?: number;
  /** Mean greedy unhinted accuracy over every level trained at (eval steps). */
  eval_accuracy_all?: number;
  /** The step's compute (absent in runs from before it was counted). */
  sampled_tokens?: number;
  rollouts?: number;
  /** The reference ledger: characters of reference answers its help showed (absent before). */
  reference_chars?: number;
  /** Teacher tokens: characters of written solutions its help showed or taught (absent before). */
  teacher_tokens?: number;
  /** The step's helps, as far as the rescue bins read them. */
  interventions?: LedgerRecord[];
  /** What went wrong in the step (a help that threw, a skipped update, …); absent in old runs. */
  events?: string[];
}

export interface RunSummary {
  schedule: string;
  /** Updates after the last level change until greedy unhinted eval ≥ threshold; null if never. */
  steps_to_recovery: number | null;
  /** Updates after the last change until eval ≥ 0.5 (the breakthrough); null if never. */
  steps_to_half: number | null;
  final_eval_accuracy: number | null;
  /** Mean eval accuracy over the evals after the last change (area under the curve / steps). */
  eval_auc: number | null;
  /** Mean eval over the second half of the steps after the change: robust to one late jump. */
  late_eval_mean: number | null;
  mean_hinted_frac: number;
  mean_all_fail_frac_after_change: number;
  /** The easy level's greedy unhinted accuracy at the last eval: what was kept. */
  final_prev_eval_accuracy: number | null;
  /** Helped groups holding a right answer after the help, over the first EARLY_STEPS steps. */
  early_rescue_rate: number | null;
  /** Mean unhinted accuracy over every level trained at, at the last eval: the whole skill. */
  final_all_eval_accuracy: number | null;
  /** The easy level's lowest accuracy at an eval after the change: the deepest forgetting. */
  lowest_prev_eval_accuracy: number | null;
  wall_s: number;
}

/** Steps after the change over which a help's rescue rate is measured: when help matters most. */
export const EARLY_STEPS = 200;

export const RECOVERY_THRESHOLD = 0.8;

function stepsTo(evals: EvalPoint[], changeStep: number, threshold: number): number | null {
  const hit = evals.find((e) => (e.eval_accuracy ?? 0) >= threshold);
  return hit ? hit.step - changeStep + 1 : null;
}

/** Summarise a run's per-step metrics (eval rows are those with eval_accuracy). */
export function summarise(
  rows: readonly EvalPoint[],
  schedule: readonly LevelChange[],
  schedText: string,
  wallS: number,
): RunSummary {
  const change = schedule[schedule.length - 1].step;
  const after = rows.filter((r) => r.step >= change);
  const evals = after.filter((r) => r.eval_accuracy !== undefined);
  const lastEval = rows.filter((r) => r.eval_accuracy !== undefined).at(-1);
  const late = evals.filter((r) => r.step >= change + (rows.at(-1)!.step - change) / 2);
  return {
    schedule: schedText,
    steps_to_recovery: stepsTo(evals, change, RECOVERY_THRESHOLD),
    steps_to_half: stepsTo(evals, change, 0.5),
    final_eval_accuracy: lastEval?.eval_accuracy ?? null,
    eval_auc: evals.length ? mean(evals.map((e) => e.eval_accuracy as number)) : null,
    late_eval_mean: late.length ? mean(late.map((e) => e.eval_accuracy as number)) : null,
    mean_hinted_frac: mean(after.map((r) => r.hinted_frac)),
    mean_all_fail_frac_after_change: mean(after.map((r) => r.all_fail_frac)),
    ...retentionAndRescue(rows, change),
    wall_s: wallS,
  };
}

/** The figures of a run a table needs beyond its first summaries, from its steps alone. */
export function retentionAndRescue(
  rows: readonly EvalPoint[],
  change: number,
): Pick<
  RunSummary,
  | 'final_prev_eval_accuracy'
  | 'early_rescue_rate'
  | 'final_all_eval_accuracy'
  | 'lowest_prev_eval_accuracy'
> {
  const prevs = rows.filter((r) => r.eval_accuracy_prev !== undefined && r.step >= change);
  const prev = prevs.at(-1);
  const last = rows.filter((r) => r.eval_accuracy !== undefined).at(-1);
  // Runs from before eval_accuracy_all: two levels, the current and the previous.
  const all =
    last?.eval_accuracy_all ??
    (last
      ? mean([
          last.eval_accuracy as number,
          ...(prev === last ? [prev.eval_accuracy_prev as number] : []),
        ])
      : null);
  // Weighted by the helped groups of each step, so the rate is per group.
  const early = rows.filter((r) => r.step >= change && r.step < change + EARLY_STEPS);
  const helped = early.reduce((n, r) => n + r.hinted_frac, 0);
  const rescued = early.reduce((n, r) => n + r.hinted_frac * (r.rescue_rate ?? 0), 0);
  return {
    final_prev_eval_accuracy: prev?.eval_accuracy_prev ?? null,
    early_rescue_rate: helped > 0 ? rescued / helped : null,
    final_all_eval_accuracy: all,
    lowest_prev_eval_accuracy: prevs.length
      ? Math.min(...prevs.map((r) => r.eval_accuracy_prev as number))
      : null,
  };
}

/** The step of a run's last level change (0 when the level never changed). */
export function lastChangeStep(rows: readonly EvalPoint[]): number {
  for (let i = rows.length - 1; i > 0; i--)
    if (rows[i].level !== rows[i - 1].level) return rows[i].step;
  return rows[0]?.step ?? 0;
}
