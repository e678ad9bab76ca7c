import type { Diagnosis } from './intervention.ts';

/** One intervention as it happened: for the JSONL log and the mentor log in the UI. */
export interface InterventionRecord {
  step: number;
  group: number;
  round: number;
  problem: string;
  diagnosis: Diagnosis | null;
  /** The hint as rendered in the hint slot, or null. */
  hint: string | null;
  scaffold: string | null;
  strength: number;
  /** Rewards of the re-attempt group. */
  rewards: number[];
  note: string;
  author: string;
}

/** Per-step metrics; names follow TRL's GRPOTrainer where one exists. */
export interface StepMetrics {
  step: number;
  level: number;
  method: string;
  /** Mean reward of the current level's groups as first sampled (unhinted); replayed easy-level
   * groups are left out so that this and `all_fail_frac` describe the level being learned. */
  reward: number;
  /** Mean reward of the replayed easy-level groups, on steps that have them. */
  replay_reward?: number;
  /** Share of the step's prompts replayed from the easy level (the replay keeper's), on those steps. */
  replay_share?: number;
  /** Weight of distillation to the base, and the base's answers learned by it, on steps that have them. */
  distill_weight?: number;
  distilled?: number;
  /** Mean within-group reward std of the current level's groups as first sampled. */
  reward_std: number;
  /** Share of the groups that went into the update whose rewards are all equal: no signal. */
  frac_reward_zero_std: number;
  /** Share of the current level's groups as first sampled where every answer scored 0. */
  all_fail_frac: number;
  /** Share of the batch's groups replaced by a helped re-attempt. */
  hinted_frac: number;
  /** Mean strength (1–3) of the help given this step; 0 when none. */
  hint_strength: number;
  /** Share of helped groups with at least one success. */
  rescue_rate: number;
  /** Mean sampled answer length in tokens (end token included). */
  completion_length: number;
  /** Mean −log p of sampled tokens: an estimate of the policy's entropy at temperature 1. */
  entropy: number;
  /** Mean per-token KL to the base policy (k3), when klCoef > 0; else null. */
  kl: number | null;
  /** Share of trained tokens whose ratio was clipped (inner epochs > 1). */
  clip_ratio: number;
  /** Global gradient norm before clipping; null when the step had no learning signal. */
  grad_norm: number | null;
  /** Policy-gradient surrogate loss of the last inner epoch. */
  loss: number;
  /**
   * Updates skipped so far in the run (this one included) because their loss or gradient norm
   * was not finite: the weights and the optimizer were left as they were.
   */
  skipped_steps: number;
  /** Sampled tokens per second of wall time, all rounds included. */
  tokens_per_s: number;
  /** Greedy, unhinted accuracy on the fixed eval set at the current level (eval steps only). */
  eval_accuracy?: number;
  /** The same at the level before the last change: retention of the easy skill. */
  eval_accuracy_prev?: number;
  /** The same at every level the run has trained at, by level (eval steps only). */
  eval_accuracy_levels?: Record<string, number>;
  /** Their mean: the whole skill, what a recovery that forgets loses (eval steps only). */
  eval_accuracy_all?: number;
  interventions: InterventionRecord[];
  /** The intervention's own figures, by name (e.g. llm_valid_rate), when it reports any. */
  intervention_stats?: Record<string, number>;
  /** Things worth knowing that are not metrics (e.g. the mentor missed its deadline). */
  events: string[];
}

export function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

export function std(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

export function allEqual(xs: readonly number[]): boolean {
  return xs.every((x) => x === xs[0]);
}
