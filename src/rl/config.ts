import type { ModelSize } from '../model/config.ts';
import type { TaskId } from '../tasks/index.ts';
import type { LevelChange } from './level-schedule.ts';

export interface GrpoConfig {
  task: TaskId;
  model: ModelSize;
  seed: number;
  /** Prompts per step (P) and answers per prompt (G). */
  prompts: number;
  groupSize: number;
  lr: number;
  /** Steps of linear learning-rate warm-up: Adam's first updates are sign-like, lr-sized jolts to every weight. */
  lrWarmupSteps: number;
  /**
   * The learning rate falls (cosine) to a tenth of `lr` between steps `from` and `to`, and stays
   * there: an anneal at the end of a run of known length, which settles a policy that a constant
   * rate keeps moving from one eval to the next. null = constant after the warm-up (the page,
   * whose runs have no end).
   */
  lrDecay: { from: number; to: number } | null;
  temperature: number;
  topK: number;
  /** Optimisation passes over each batch; >1 switches on PPO-style ratio clipping. */
  innerEpochs: number;
  clipEps: number;
  /** Truncation of the importance weight of hinted samples trained without their hint. */
  isClip: number;
  /** KL-to-base coefficient (k3 estimator); 0 = off. */
  klCoef: number;
  /**
   * Distillation to the base where forgetting happens: the weight of the policy's mean log-loss
   * on the base's greedy answers to the step's replayed prompts (and `distillPrompts` more),
   * beside the GRPO loss; 0 = off.
   */
  distillCoef: number;
  /**
   * The distillation weight the keeper rises to as the replayed level's rollouts fail, as the
   * replay share rises to `replayMax` (ReplayKeeper); at or below `distillCoef`, it stays fixed.
   */
  distillMax: number;
  /**
   * Extra prompts per step at the replay level learned only by distillation (the base's greedy
   * answers, no rollouts), beside the batch: more of the easy level kept without taking the hard
   * level's prompts. 0 = distil on the replayed prompts alone.
   */
  distillPrompts: number;
  /** Divide advantages by the group's std (GRPO) or only centre them (Dr. GRPO style). */
  scaleRewards: boolean;
  /** Most rounds of re-attempts per step for groups that still fail. */
  maxRounds: number;
  /**
   * Answers of a failed group kept beside its re-attempts (the rest of its G are re-attempts).
   * A help every re-attempt passes gives an all-pass group and no gradient; with failures kept
   * the passes are pushed up and the unhelped failures down. 0 = the re-attempts replace them.
   */
  keepFailed: number;
  evalEvery: number;
  /**
   * Evals also every `evalDenseEvery` steps (0: none) for the first `evalDenseSteps` after a level
   * change, where a recovery is timed; they change nothing the trainer learns from.
   */
  evalDenseEvery: number;
  evalDenseSteps: number;
  evalSize: number;
  /** Difficulty over time; the first entry is at step 0. */
  schedule: LevelChange[];
  /**
   * Share of each step's prompts drawn at `replayLevel` (if set) against forgetting while that
   * level's rollouts pass, rising to `replayMax` as they fail (ReplayKeeper); `replayMax` at or
   * below `replay` keeps the share fixed.
   */
  replay: number;
  replayMax: number;
  replayLevel: number | null;
  /** How long the trainer waits for any call on the intervention before going on without it. */
  mentorDeadlineMs: number;
  maxGradNorm: number;
  /** γ of the shaping f(p) = p/(p + γ) on shaped tokens (demonstrations, refinements, retries learned shaped). */
  offPolicyGamma: number;
}

export const DEFAULT_GRPO: Omit<GrpoConfig, 'task' | 'schedule'> = {
  model: 'tiny',
  seed: 1,
  prompts: 16,
  groupSize: 8,
  lr: 3e-4,
  lrWarmupSteps: 20,
  lrDecay: null,
  temperature: 1,
  topK: 0,
  innerEpochs: 1,
  clipEps: 0.2,
  isClip: 1,
  klCoef: 0,
  distillCoef: 0,
  distillMax: 0,
  distillPrompts: 0,
  scaleRewards: true,
  maxRounds: 3,
  keepFailed: 0,
  evalEvery: 25,
  evalDenseEvery: 0,
  evalDenseSteps: 400,
  evalSize: 200,
  replay: 0.125,
  replayMax: 0.125,
  replayLevel: null,
  mentorDeadlineMs: 10_000,
  maxGradNorm: 1,
  offPolicyGamma: 0.1,
};

/** Whether a run distils to the base at any point (a fixed weight, or the keeper's top). */
export function distills(config: Pick<GrpoConfig, 'distillCoef' | 'distillMax'>): boolean {
  return Math.max(config.distillCoef, config.distillMax) > 0;
}

/** Whether a run keeps the policy it started from beside the one it trains (KL, distillation). */
export function needsBasePolicy(
  config: Pick<GrpoConfig, 'klCoef' | 'distillCoef' | 'distillMax'>,
): boolean {
  return config.klCoef > 0 || distills(config);
}

/** Prompts of a step drawn at the replay level at a share (`replay`: the rest share). */
export function replayedPrompts(config: Pick<GrpoConfig, 'prompts' | 'replay'>): number {
  return Math.round(config.prompts * config.replay);
}

/**
 * Unhinted answers a step samples at the level being trained (replayed prompts left out): the
 * tries plain GRPO gets at a lucky success, for the gate and the page alike.
 */
export function hardSamplesPerStep(
  config: Pick<GrpoConfig, 'prompts' | 'groupSize' | 'replay'>,
): number {
  return (config.prompts - replayedPrompts(config)) * config.groupSize;
}
