import type { LevelChange } from '../rl/level-schedule.ts';
import { mean } from '../rl/metrics.ts';

/** The part of a step's metrics a run summary reads. */
export interface EvalPoint {
  step: number;
  level: number;
  eval_accuracy?: number;
  all_fail_frac: number;
  hinted_frac: number;
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
  wall_s: number;
}

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
    wall_s: wallS,
  };
}
