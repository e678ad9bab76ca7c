import type { ScoredBatch, ScoredGroup, TrainContext } from '../../rl/intervention.ts';
import { createRng } from '../../tasks/index.ts';

export interface CurriculumOptions {
  /** Below this unhinted success rate every all-fail group is helped… */
  helpBelow: number;
  /** …above this none is, and in between a falling share (fading). */
  fadeAbove: number;
  /** Keep the re-attempts' rescue rate in this band by moving the base strength. */
  rescueLow: number;
  rescueHigh: number;
  /** Weight of the newest observation in the moving averages. */
  ema: number;
}

export const DEFAULT_CURRICULUM: CurriculumOptions = {
  helpBelow: 0.15,
  fadeAbove: 0.6,
  rescueLow: 0.3,
  rescueHigh: 0.85,
  ema: 0.1,
};

export interface CurriculumState {
  level: number;
  /** Moving average of the unhinted success rate at this level (first-round attempts). */
  unhinted: number;
  /** Moving average of the share of groups helped at the base strength (round 1) with a success. */
  rescue: number;
  /** Moving average of hinted success minus unhinted success: how much the policy leans on help. */
  reliance: number;
  /** Strength the first round of help starts at (1–3). */
  baseStrength: number;
  /** Share of all-fail groups helped now. */
  helpShare: number;
}

/**
 * The Curriculum keeper decides when to intervene (all-fail groups, fewer as unhinted success
 * returns), at which strength (the base strength moves to keep the re-attempts' rescue rate
 * inside a learnable band — neither 0 nor 1), escalates by one strength per round within a step,
 * and fades across steps. It optimises unhinted learning: fading keys on quantities that move
 * (unhinted success, rescue rate, reliance), never on absolute hinted reward.
 */
export class CurriculumKeeper {
  state: CurriculumState = this.fresh(0);

  constructor(readonly opts: CurriculumOptions = DEFAULT_CURRICULUM) {}

  private fresh(level: number): CurriculumState {
    return { level, unhinted: 0, rescue: 0.5, reliance: 0, baseStrength: 1, helpShare: 1 };
  }

  private mix(old: number, sample: number): number {
    return old + this.opts.ema * (sample - old);
  }

  /**
   * Update from a step's groups as first sampled at its level (replayed groups are another
   * level's news); a level change starts the statistics over.
   */
  observeUnhinted(batch: ScoredBatch): void {
    if (batch.level !== this.state.level) this.state = this.fresh(batch.level);
    const rewards = batch.groups
      .filter((g) => !isReplayed(g, batch))
      .flatMap((g) => g.attempts.map((a) => a.reward));
    if (rewards.length === 0) return;
    const s = this.state;
    s.unhinted = this.mix(s.unhinted, rewards.reduce((a, b) => a + b, 0) / rewards.length);
    const { helpBelow, fadeAbove } = this.opts;
    s.helpShare = Math.max(0, Math.min(1, (fadeAbove - s.unhinted) / (fadeAbove - helpBelow)));
  }

  /**
   * The groups to help this round: in the first round, all-fail groups (a fading share of them,
   * chosen by a deterministic hash so runs reproduce); later rounds, every group still failing.
   * A replayed group from an earlier level that fails is always helped: the fading follows the
   * new level's success, and a skill the policy is losing has no gradient of its own to come back.
   */
  select(batch: ScoredBatch, ctx: TrainContext): ScoredGroup[] {
    const failing = batch.groups.filter((g) => g.attempts.every((a) => a.reward === 0));
    if (batch.round > 0) return failing;
    return failing.filter(
      (g) => isReplayed(g, batch) || fraction(ctx.step, g.group) < this.state.helpShare,
    );
  }

  /** Go on from a state saved earlier (plain data from a snapshot), checked field by field. */
  restore(state: CurriculumState): void {
    const unit = (x: unknown) => typeof x === 'number' && x >= 0 && x <= 1;
    const ok =
      Number.isInteger(state.level) &&
      unit(state.unhinted) &&
      unit(state.rescue) &&
      unit(state.helpShare) &&
      typeof state.reliance === 'number' &&
      Math.abs(state.reliance) <= 1 &&
      [1, 2, 3].includes(state.baseStrength);
    if (!ok)
      throw new Error(`curriculum state ${JSON.stringify(state)} is not one the keeper writes`);
    this.state = { ...state };
  }

  /** Strength for a round of help: the base strength, plus one per escalation round. */
  strength(round: number): number {
    return Math.min(3, this.state.baseStrength + Math.max(0, round - 1));
  }

  /** Update from re-attempts: rescue rate, reliance, and the base strength that keeps rescue in band. */
  observeHelped(retry: ScoredBatch): void {
    if (retry.groups.length === 0) return;
    const s = this.state;
    const hinted = retry.groups.flatMap((g) => g.attempts.map((a) => a.reward));
    s.reliance = this.mix(
      s.reliance,
      hinted.reduce((a, b) => a + b, 0) / hinted.length - s.unhinted,
    );
    // The band is about the base strength, so only its own round counts: escalated rounds rescue
    // more and would hide a base strength that rescues nothing.
    if (retry.round !== 1) return;
    const rescued =
      retry.groups.filter((g) => g.attempts.some((a) => a.reward > 0)).length / retry.groups.length;
    s.rescue = this.mix(s.rescue, rescued);
    if (s.rescue < this.opts.rescueLow && s.baseStrength < 3) {
      s.baseStrength++;
      s.rescue = 0.5;
    } else if (s.rescue > this.opts.rescueHigh && s.baseStrength > 1) {
      s.baseStrength--;
      s.rescue = 0.5;
    }
  }
}

/** A group replayed from an earlier level, not of the level the batch trains at. */
export function isReplayed(group: ScoredGroup, batch: ScoredBatch): boolean {
  return group.problem.level !== batch.level;
}

/** A reproducible number in [0, 1) per (step, group). */
function fraction(step: number, group: number): number {
  return createRng(step).fork(`help-${group}`).float();
}
