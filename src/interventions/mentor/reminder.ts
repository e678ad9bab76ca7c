import type { Reprompt, ScoredGroup, TrainContext } from '../../rl/intervention.ts';
import { hasTeacher } from '../../tasks/index.ts';
import type { MentorDiagnosis } from './diagnosis.ts';
import { narrateReminder } from './narrator.ts';

/** Answers of a failed replayed group that become the reference (as the off-policy rival's one). */
export const REMINDER_ANSWERS = 1;

/**
 * Help for a replayed group of an earlier level that fails: a skill the policy had and is losing
 * to the new level. No fresh attempt would say more than the answer (a one-op program has no part
 * to scaffold under the reveal cap, and a length hint stops being read once two ops are learned),
 * so its reference answer takes the place of one failed answer beside the failures it corrects: a
 * reminder, not a lesson. It is learned with the plain weight, as if sampled (a `plain`
 * demonstration): the shaping would all but silence an answer the policy now finds unlikely.
 */
export function remind(
  group: ScoredGroup,
  diagnosis: MentorDiagnosis,
  ctx: TrainContext,
): Reprompt | null {
  const count = Math.min(REMINDER_ANSWERS, ctx.groupSize - 1);
  // Where the policy writes working, the reference is not what it writes, and the working would
  // be a teacher's: no reminder (the mentor there gives its usual lesson, which tells nothing).
  if (count < 1 || hasTeacher(group.problem)) return null;
  return {
    group: group.group,
    help: { kind: 'demonstration', answer: group.problem.answer, count, weight: 'plain' },
    diagnosis,
    note: narrateReminder(diagnosis, group.problem, count, ctx.groupSize),
    author: 'rules',
  };
}
