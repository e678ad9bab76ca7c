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
  /**
   * The reference ledger: characters of the reference answer (or of a written answer) the help
   * put in front of the policy, once for the help (reprompt/answers.ts, referenceCharsOf). Always
   * set; absent only in runs saved before it was counted.
   */
  reference_chars?: number;
  /** The reference answer's length, for the share of it the help showed (set with the above). */
  answer_chars?: number;
  /** The help's channel: a fresh attempt, a written answer or a refinement (set with the above). */
  help_kind?: 'retry' | 'demonstration' | 'refinement';
  /** Rewards of the re-attempt group. */
  rewards: number[];
  note: string;
  author: string;
  /** A help the intervention considered and did not send, and why (Reprompt.declined). */
  declined?: { by: string; why: string };
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
  /** Answers learned by context distillation (drawn under a hint, learned without it), on steps that have them. */
  context_distilled?: number;
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
  /** The learning rate the step updated at (warm-up, then any annealing). */
  lr: number;
  /**
   * Updates skipped so far in the run (this one included) because their loss or gradient norm
   * was not finite: the weights and the optimizer were left as they were.
   */
  skipped_steps: number;
  /** Sampled tokens per second of wall time, all rounds included. */
  tokens_per_s: number;
  /**
   * Tokens sampled this step: every round, and the base's answers for distillation (compute).
   * Always set; absent only in runs saved before it was counted.
   */
  sampled_tokens?: number;
  /** Answers sampled this step, counted as sampled_tokens is; a written answer is none. */
  rollouts?: number;
  /**
   * The reference ledger: characters of reference answers (and written answers) the step's help
   * put in front of the policy, summed over its helps. Always set; absent only in runs saved
   * before it was counted.
   */
  reference_chars?: number;
  /**
   * Teacher tokens: characters of written solutions (demonstrations, prefix hints) the step's help
   * put in front of the policy or taught it, summed over its helps (compute beside sampled_tokens
   * where the family's solutions need a teacher). Absent in runs saved before it was counted.
   */
  teacher_tokens?: number;
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

/**
 * How a scalar step field is kept: a whole number ≥ 0 (`count`), a whole number (`integer`), a
 * number, a number or null (the step could not measure it), or text.
 */
export type MetricKind = 'count' | 'integer' | 'number' | 'number-or-null' | 'text';

export interface MetricSpec {
  readonly kind: MetricKind;
  /** Present on some steps only (eval steps, steps that replay or distil); absent on the others. */
  readonly optional?: true;
  /** Not a chart series though numeric: the step is the charts' x axis. */
  readonly chart?: false;
  /** What it is, for the metric table of the docs (one line, no `|`). */
  readonly doc: string;
}

/** The fields of StepMetrics whose value is a number or text (possibly null or absent). */
type ScalarField = {
  [K in keyof StepMetrics]-?: NonNullable<StepMetrics[K]> extends number | string ? K : never;
}[keyof StepMetrics];

/** The kinds a field's type allows: text for strings, number-or-null exactly when null is allowed. */
type KindOf<T> =
  NonNullable<T> extends string
    ? 'text'
    : null extends T
      ? 'number-or-null'
      : 'count' | 'integer' | 'number';

/** `optional: true` exactly when the field may be absent. */
type OptionalOf<K extends keyof StepMetrics> =
  Record<string, never> extends Pick<StepMetrics, K>
    ? { readonly optional: true }
    : { readonly optional?: never };

type StepMetricDeclaration = {
  readonly [K in ScalarField]: MetricSpec & {
    readonly kind: KindOf<StepMetrics[K]>;
  } & OptionalOf<K>;
};

/**
 * The per-step scalars, in the order of the CSV's columns: the one list the charts (every numeric
 * one but the step), the saved-run check of a step, the CSV export and the docs' metric table
 * (`npm run docs:metrics`) are made from. Its keys are exactly StepMetrics' scalar fields and each
 * kind matches its field's type (`satisfies` below): a field without a declaration, or the reverse,
 * does not compile. The JSON export needs no list: it writes the records as they are.
 *
 * The other fields are not scalars and keep their own handling, all in src/app: `events` (CSV:
 * joined with " | "), `interventions`, `intervention_stats` and `eval_accuracy_levels` (CSV: JSON
 * text; export.ts lists them, and fails to compile while a StepMetrics field is in neither list);
 * the saved-run check (run-store.ts) has a schema of its own for `events`, `interventions` and
 * `eval_accuracy_levels`, and lets `intervention_stats` through as it is.
 */
export const STEP_METRICS = {
  step: { kind: 'count', chart: false, doc: 'The step, from 0.' },
  level: { kind: 'integer', doc: 'The difficulty level the step trained at.' },
  method: { kind: 'text', doc: 'The intervention method (`none` = GRPO, `mentor`, …).' },
  reward: {
    kind: 'number',
    doc: "Mean reward of the current level's groups as first sampled (unhinted); replayed easy-level groups left out.",
  },
  replay_reward: {
    kind: 'number',
    optional: true,
    doc: 'Mean reward of the replayed easy-level groups, on steps that have them.',
  },
  replay_share: {
    kind: 'number',
    optional: true,
    doc: "Share of the step's prompts replayed from the easy level, on those steps.",
  },
  distill_weight: {
    kind: 'number',
    optional: true,
    doc: 'Weight of distillation to the base policy, on steps that distil.',
  },
  distilled: {
    kind: 'count',
    optional: true,
    doc: "The base's answers learned by distillation, on steps that distil.",
  },
  context_distilled: {
    kind: 'count',
    optional: true,
    doc: 'Answers learned by context distillation (drawn under a hint, learned in the prompt without it), on steps that have them.',
  },
  reward_std: {
    kind: 'number',
    doc: "Mean within-group reward std of the current level's groups as first sampled.",
  },
  frac_reward_zero_std: {
    kind: 'number',
    doc: 'Share of the groups that went into the update whose rewards are all equal: no signal.',
  },
  all_fail_frac: {
    kind: 'number',
    doc: "Share of the current level's groups as first sampled where every answer scored 0.",
  },
  hinted_frac: {
    kind: 'number',
    doc: "Share of the batch's groups replaced by a helped re-attempt.",
  },
  hint_strength: {
    kind: 'number',
    doc: 'Mean strength (1–3) of the help given this step; 0 when none.',
  },
  rescue_rate: { kind: 'number', doc: 'Share of helped groups with at least one success.' },
  completion_length: {
    kind: 'number',
    doc: 'Mean sampled answer length in tokens (end token included).',
  },
  entropy: {
    kind: 'number',
    doc: "Mean −log p of sampled tokens: an estimate of the policy's entropy at temperature 1.",
  },
  kl: {
    kind: 'number-or-null',
    doc: 'Mean per-token KL to the base policy (k3) when the KL coefficient is above 0; else null.',
  },
  clip_ratio: {
    kind: 'number',
    doc: 'Share of trained tokens whose ratio was clipped (inner epochs > 1).',
  },
  grad_norm: {
    kind: 'number-or-null',
    doc: 'Global gradient norm before clipping; null when the step had no learning signal.',
  },
  loss: { kind: 'number', doc: 'Policy-gradient surrogate loss of the last inner epoch.' },
  lr: {
    kind: 'number',
    doc: 'The learning rate the step updated at (warm-up, then any annealing).',
  },
  skipped_steps: {
    kind: 'count',
    doc: 'Updates skipped so far in the run (this one included) because their loss or gradient norm was not finite.',
  },
  tokens_per_s: {
    kind: 'number',
    doc: 'Sampled tokens per second of wall time, all rounds included.',
  },
  sampled_tokens: {
    kind: 'count',
    optional: true,
    doc: "Tokens sampled this step: every round's answers and the base's answers for distillation; a written answer costs none (the compute a method spends).",
  },
  rollouts: {
    kind: 'count',
    optional: true,
    doc: 'Answers sampled this step, counted as sampled_tokens is (absent in runs saved before they were counted).',
  },
  reference_chars: {
    kind: 'count',
    optional: true,
    doc: "Characters of reference answers (and of written answers) the step's help put in front of the policy, once per group and help (the reference ledger; absent in runs saved before it was counted).",
  },
  teacher_tokens: {
    kind: 'count',
    optional: true,
    doc: "Characters of written solutions (a demonstration's text, a prefix hint's) the step's help put in front of the policy or taught it, once per group and help: a teacher's compute where the family's worked solutions need one (absent in runs saved before it was counted).",
  },
  eval_accuracy: {
    kind: 'number',
    optional: true,
    doc: 'Greedy, unhinted accuracy on the fixed eval set at the current level (eval steps only).',
  },
  eval_accuracy_prev: {
    kind: 'number',
    optional: true,
    doc: 'The same at the level before the last change: retention of the easy skill.',
  },
  eval_accuracy_all: {
    kind: 'number',
    optional: true,
    doc: 'The same, mean over every level the run has trained at: the whole skill (eval steps only).',
  },
} as const satisfies StepMetricDeclaration;

export type StepMetricKey = keyof typeof STEP_METRICS;

/** The declared keys in their order (the CSV's). */
export const STEP_METRIC_KEYS = Object.keys(STEP_METRICS) as StepMetricKey[];

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
