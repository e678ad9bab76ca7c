import type { Intervention, Reprompt, ScoredBatch, TrainContext } from '../../rl/intervention.ts';
import { hasTeacher, teacherSolution, type TeacherFormat } from '../../tasks/index.ts';

/** Answers of a helped group that are the reference (LUFFY mixes in one trace per prompt). */
export const OFF_POLICY_ANSWERS = 1;

/**
 * The off-policy rival's forms: `offpolicy` (LUFFY's shaping, all-fail groups), `offpolicy-full`
 * (LUFFY as published: every group of the level being learned, advantages not divided by the
 * group's std, methods.ts), `offpolicy-plain` (the written reference at the plain
 * policy-gradient weight, as if the policy had drawn it, all-fail groups), `offpolicy-answer`
 * (as `offpolicy`, the final answer alone where the family writes working: a demonstration
 * without a teacher).
 */
export type OffPolicyForm = 'offpolicy' | 'offpolicy-full' | 'offpolicy-plain' | 'offpolicy-answer';

/**
 * Off-policy guidance (LUFFY-style): every all-fail group gets the reference answer in place of
 * OFF_POLICY_ANSWERS of its own, learned with the shaped loss f(p) = p/(p + γ) (or, in the plain
 * form, the plain weight); no fresh attempt is sampled. Which groups get help is the other
 * baselines' rule (all-fail groups, first round), so only the kind of help differs. As published
 * (`offpolicy-full`), the reference goes into every group of the level being learned, failed or
 * not (the replayed easy-level groups are the keeper's and are left alone).
 */
export class OffPolicyGuidance implements Intervention {
  /**
   * `teacher`: the notation of the worked solution a demonstration is, where the family writes
   * working (TaskFamily.teacherSolution); elsewhere the reference is the demonstration.
   */
  constructor(
    readonly name: OffPolicyForm = 'offpolicy',
    private readonly teacher: TeacherFormat = 'own',
  ) {}

  async plan(batch: ScoredBatch, ctx: TrainContext): Promise<Reprompt[]> {
    if (ctx.round > 1) return [];
    const count = Math.min(OFF_POLICY_ANSWERS, ctx.groupSize - 1);
    if (count < 1) return [];
    const everyGroup = this.name === 'offpolicy-full';
    const weight = this.name === 'offpolicy-plain' ? 'plain' : 'shaped';
    return batch.groups
      .filter((g) =>
        everyGroup ? g.problem.level === batch.level : g.attempts.every((a) => a.reward === 0),
      )
      .map((g): Reprompt => {
        const taught = this.name !== 'offpolicy-answer' && hasTeacher(g.problem);
        const answer = taught ? teacherSolution(g.problem, this.teacher) : g.problem.answer;
        const what = taught
          ? `the teacher's worked solution (${this.teacher} notation)`
          : 'the reference answer';
        return {
          group: g.group,
          help: { kind: 'demonstration', answer, count, weight },
          note: `Put ${what} ${answer} in place of ${count} of the ${ctx.groupSize} ${everyGroup ? '' : 'failed '}answers (off-policy, ${weight} loss).`,
          author: this.name,
        };
      });
  }
}
