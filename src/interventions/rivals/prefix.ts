import type { Intervention, Reprompt, ScoredBatch, TrainContext } from '../../rl/intervention.ts';
import { getFamily, teacherSolution, type TeacherFormat } from '../../tasks/index.ts';

export interface PrefixSchedule {
  /** Share of the reference answer given, per phase after the last level change… */
  fractions: readonly number[];
  /** …each phase this many steps long; after the last phase, no help. */
  phaseSteps: number;
}

/** QuestA-style: 50% of the answer, then 25%, then nothing. */
export const DEFAULT_PREFIX_SCHEDULE: PrefixSchedule = { fractions: [0.5, 0.25], phaseSteps: 150 };

/**
 * Partial-solution prefix (QuestA-style): every all-fail group gets a fixed fraction of the
 * reference answer in the prompt's hint slot, annealed on a fixed schedule from the last level
 * change, whatever the policy does. Where the family writes working, the partial solution is the
 * start of the teacher's worked solution, in `teacher` notation; where the family's base reads no
 * prefix hint (worked), it is the answer's forced start, which the policy goes on from.
 */
export class PrefixHints implements Intervention {
  readonly name = 'prefix';

  constructor(
    private readonly schedule: PrefixSchedule = DEFAULT_PREFIX_SCHEDULE,
    private readonly teacher: TeacherFormat = 'own',
  ) {}

  fractionAt(stepsAtLevel: number): number {
    return this.schedule.fractions[Math.floor(stepsAtLevel / this.schedule.phaseSteps)] ?? 0;
  }

  async plan(batch: ScoredBatch, ctx: TrainContext): Promise<Reprompt[]> {
    if (ctx.round > 1) return [];
    const fraction = this.fractionAt(ctx.stepsAtLevel);
    const out: Reprompt[] = [];
    for (const g of batch.groups) {
      if (!g.attempts.every((a) => a.reward === 0)) continue;
      const solution = teacherSolution(g.problem, this.teacher);
      const n = solution.length;
      const k = Math.min(n - 1, Math.round(fraction * n));
      if (k < 1) continue;
      const text = solution.slice(0, k);
      const inHint = getFamily(g.problem.family).hintKinds.includes('prefix');
      out.push({
        group: g.group,
        help: inHint
          ? { kind: 'retry', hint: { kind: 'prefix', text }, learn: 'as-sampled' }
          : { kind: 'retry', scaffold: text, learn: 'as-sampled' },
        note: `Gave ${Math.round(fraction * 100)}% of the ${solution === g.problem.answer ? 'answer' : 'worked solution'}${inHint ? '' : ' as the start of the answer'} (schedule, step ${ctx.stepsAtLevel} at this level).`,
        author: 'prefix',
      });
    }
    return out;
  }
}
