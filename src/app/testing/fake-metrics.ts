// Step metrics for unit tests.
import type { StepMetrics } from '../../rl/metrics.ts';

export function fakeStep(step: number, patch: Partial<StepMetrics> = {}): StepMetrics {
  return {
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
