import type { Intervention, Reprompt, ScoredBatch, TrainContext } from '../../rl/intervention.ts';

/** Answers of a helped group that are the reference (LUFFY mixes in one trace per prompt). */
export const OFF_POLICY_ANSWERS = 1;

/**
 * Off-policy guidance (LUFFY-style): every all-fail group gets the reference answer in place of
 * OFF_POLICY_ANSWERS of its own, learned with the shaped loss f(p) = p/(p + γ); no fresh attempt
 * is sampled. Which groups get help is the other baselines' rule (all-fail groups, first round),
 * so only the kind of help differs.
 *
 * `asPublished` (the `offpolicy-full` method): as LUFFY, the reference goes into every group of
 * the level being learned, failed or not (the replayed easy-level groups are the keeper's and are
 * left alone); the method also runs without dividing advantages by the group's std (methods.ts).
 */
export class OffPolicyGuidance implements Intervention {
  readonly name: string;

  constructor(private readonly asPublished = false) {
    this.name = asPublished ? 'offpolicy-full' : 'offpolicy';
  }

  async plan(batch: ScoredBatch, ctx: TrainContext): Promise<Reprompt[]> {
    if (ctx.round > 1) return [];
    const count = Math.min(OFF_POLICY_ANSWERS, ctx.groupSize - 1);
    if (count < 1) return [];
    return batch.groups
      .filter((g) =>
        this.asPublished
          ? g.problem.level === batch.level
          : g.attempts.every((a) => a.reward === 0),
      )
      .map((g): Reprompt => ({
        group: g.group,
        help: { kind: 'demonstration', answer: g.problem.answer, count, weight: 'shaped' },
        note: `Put the reference answer ${g.problem.answer} in place of ${count} of the ${ctx.groupSize} ${this.asPublished ? '' : 'failed '}answers (off-policy, shaped loss).`,
        author: this.name,
      }));
  }
}
