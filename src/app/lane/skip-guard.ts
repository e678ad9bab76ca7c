import type { NamedTensor } from '../../model/safetensors.ts';
import type { StepMetrics } from '../../rl/metrics.ts';
import type { TrainingState } from '../../rl/training-state.ts';

/** Skipped updates in a row after which a lane goes back to its last snapshot. */
export const ROLLBACK_AFTER_SKIPS = 3;

/** What a lane does about a step's skipped update. */
export interface SkipVerdict {
  /** For the page: the step's update was skipped. */
  notice: string | null;
  /** Updates in a row have been skipped: restore the last snapshot's weights. */
  rollback: boolean;
}

/**
 * Watches the trainer's count of skipped updates (a loss or gradient that was not finite): one
 * notice per skipped step, and a rollback once ROLLBACK_AFTER_SKIPS come in a row.
 */
export class SkipGuard {
  private seen = 0;
  private inARow = 0;

  observe(m: StepMetrics): SkipVerdict {
    const skipped = m.skipped_steps > this.seen;
    this.seen = m.skipped_steps;
    if (!skipped) {
      this.inARow = 0;
      return { notice: null, rollback: false };
    }
    this.inARow++;
    const rollback = this.inARow >= ROLLBACK_AFTER_SKIPS;
    if (rollback) this.inARow = 0;
    return {
      notice: `Step ${m.step}: the update was skipped, its loss or gradient was not finite; the weights are unchanged.`,
      rollback,
    };
  }
}

/**
 * What a lane goes on from after updates skipped in a row: its state `now` with the rollback
 * point's weights (finite: a skipped update changes none) and a fresh AdamW (moments cleared, its
 * bias correction from step 0); its step, counters and the mentor's statistics stay, so the lanes
 * stay in lockstep.
 */
export function rolledBack(now: TrainingState, weights: NamedTensor[]): TrainingState {
  const moments = now.optimizer.moments.map((t) => ({
    ...t,
    data: new Float32Array(t.data.length),
  }));
  return { ...now, weights, optimizer: { step: 0, moments } };
}
