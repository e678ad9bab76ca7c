import { replayedPrompts, type GrpoConfig } from './config.ts';
import { mean } from './metrics.ts';

/** Rollout success of the replayed level at or above which its share stays at rest. */
export const REPLAY_KEEP = 0.9;
/** Weight of a step's replayed rollouts in the running success. */
const EMA = 0.2;

/**
 * How many of a step's prompts go to the replayed level: `replay` of them while that level's
 * rollouts still pass (a running success at REPLAY_KEEP or more), rising linearly to `replayMax`
 * as the success falls to 0 — more practice where a skill is being lost, none spent where it
 * holds. Part of the trainer, so every method gets the same replay.
 */
export class ReplayKeeper {
  /** Running success of the replayed level's first-sampled answers; it starts as a level passed. */
  success = 1;

  constructor(
    private readonly config: Pick<
      GrpoConfig,
      'prompts' | 'replay' | 'replayMax' | 'distillCoef' | 'distillMax'
    >,
  ) {}

  /** How far the running success is below REPLAY_KEEP, from 0 (at or above it) to 1 (at 0). */
  private need(): number {
    return Math.min(1, Math.max(0, (REPLAY_KEEP - this.success) / REPLAY_KEEP));
  }

  share(): number {
    const { replay, replayMax } = this.config;
    return replay + Math.max(0, replayMax - replay) * this.need();
  }

  /** Weight of distillation to the base: `distillCoef`, rising to `distillMax` the same way. */
  distillWeight(): number {
    const { distillCoef, distillMax } = this.config;
    return distillCoef + Math.max(0, distillMax - distillCoef) * this.need();
  }

  /** Prompts of the next step drawn at the replayed level (once the level has changed). */
  prompts(): number {
    return replayedPrompts({ prompts: this.config.prompts, replay: this.share() });
  }

  /** A step's replayed rewards (as first sampled); none leaves the running success as it is. */
  observe(rewards: readonly number[]): void {
    if (rewards.length > 0) this.success += EMA * (mean(rewards) - this.success);
  }

  /** Go on from a saved running success. */
  restore(success: number): void {
    if (!(Number.isFinite(success) && success >= 0 && success <= 1))
      throw new Error(`replay success ${success} is not in [0, 1]`);
    this.success = success;
  }
}
