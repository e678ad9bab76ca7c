// Step metrics for unit tests.
import {
  STEP_METRIC_KEYS,
  STEP_METRICS,
  type MetricKind,
  type MetricSpec,
  type StepMetrics,
} from '../../rl/metrics.ts';

/** A declared metric's value where a test sets none, by kind. */
const FILLER: Record<MetricKind, number | string | null> = {
  count: 0,
  integer: 0,
  number: 0,
  'number-or-null': null,
  text: '',
};

/**
 * Every metric a step always has, filled by kind from the declaration, so that a new metric needs
 * no line here.
 */
function declaredFields(): StepMetrics {
  const required = STEP_METRIC_KEYS.filter((k) => !(STEP_METRICS[k] as MetricSpec).optional);
  return Object.fromEntries(
    required.map((k) => [k, FILLER[STEP_METRICS[k].kind]]),
  ) as unknown as StepMetrics;
}

export function fakeStep(step: number, patch: Partial<StepMetrics> = {}): StepMetrics {
  return {
    ...declaredFields(),
    step,
    level: 3,
    method: 'none',
    reward: 0.5,
    reward_std: 0.1,
    frac_reward_zero_std: 0.2,
    all_fail_frac: 0.1,
    hinted_frac: 0,
    hint_strength: 0,
    rescue_rate: 0,
    completion_length: 4,
    entropy: 1,
    kl: null,
    clip_ratio: 0,
    grad_norm: 1,
    loss: 0.1,
    skipped_steps: 0,
    tokens_per_s: 1000,
    interventions: [],
    events: [],
    ...patch,
  };
}
