import type { Reprompt } from './intervention.ts';
import { allEqual, mean, std, type InterventionRecord, type StepMetrics } from './metrics.ts';
import type { UpdateResult } from './policy-update.ts';
import { strengthOf } from './reprompt/answers.ts';
import type { TrainGroup } from './train-group.ts';

/** What a step's first phase leaves for the others. */
export interface SampledStep {
  groups: TrainGroup[];
  /** Rewards of the unhelped groups at the step's level, and of the replayed ones. */
  firstRewards: number[][];
  replayRewards: number[][];
  /** What sampling them cost. */
  tokens: number;
  rollouts: number;
}

/** Which step, for whom: the fields of a step's metrics that are not measured from its groups. */
export interface StepTag {
  step: number;
  level: number;
  method: string;
  lr: number;
  skippedSteps: number;
}

/**
 * What the step did, in TRL's names where there is one, from its final groups (tokens_per_s is
 * the caller's to set).
 */
export function stepMetrics(
  tag: StepTag,
  sampled: SampledStep,
  records: InterventionRecord[],
  update: UpdateResult,
  events: string[],
): StepMetrics {
  const { groups, firstRewards, replayRewards } = sampled;
  const helped = groups.filter((g) => g.reprompt);
  const finalRewards = groups.map((g) => g.attempts.map((a) => a.verdict.reward));
  // Answers an intervention wrote have no sampling log-probabilities: entropy and length are
  // the policy's own.
  const sampledAnswers = groups.flatMap((g) => g.attempts.filter((a) => !a.offPolicy));
  const allTokens = sampledAnswers.flatMap((a) => Array.from(a.logprobs));
  const metrics: StepMetrics = {
    step: tag.step,
    level: tag.level,
    method: tag.method,
    reward: mean(firstRewards.flat()),
    reward_std: mean(firstRewards.map((r) => std(r))),
    frac_reward_zero_std: mean(finalRewards.map((r) => (allEqual(r) ? 1 : 0))),
    all_fail_frac: mean(firstRewards.map((r) => (r.every((x) => x === 0) ? 1 : 0))),
    hinted_frac: helped.length / groups.length,
    hint_strength: mean(helped.map((g) => strengthOf(g.reprompt as Reprompt, g.problem))),
    rescue_rate: mean(helped.map((g) => (g.attempts.some((a) => a.verdict.reward > 0) ? 1 : 0))),
    completion_length: mean(sampledAnswers.map((a) => a.tokens.length)),
    entropy: allTokens.length ? -mean(allTokens) : 0,
    kl: update.kl,
    clip_ratio: update.clipRatio,
    grad_norm: update.gradNorm,
    loss: update.loss,
    lr: tag.lr,
    skipped_steps: tag.skippedSteps,
    tokens_per_s: 0,
    interventions: records,
    events,
  };
  if (replayRewards.length > 0) {
    metrics.replay_reward = mean(replayRewards.flat());
    metrics.replay_share = replayRewards.length / groups.length;
  }
  return metrics;
}
