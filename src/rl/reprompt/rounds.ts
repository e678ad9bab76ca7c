import { renderHint, type TaskFamily } from '../../tasks/index.ts';
import type { GrpoConfig } from '../config.ts';
import { writtenAttempt, type Attempt } from '../sampler.ts';
import {
  promptOf,
  type ContextDistill,
  type Intervention,
  type Refinement,
  type Reprompt,
  type Retry,
  type ScoredBatch,
  type ScoredGroup,
  type TrainContext,
} from '../intervention.ts';
import type { InterventionGuard } from '../intervention-guard.ts';
import type { ContextTarget } from '../log-loss-rows.ts';
import { allEqual, type InterventionRecord } from '../metrics.ts';
import {
  chosenRefinements,
  distillRequest,
  distillsOtherHint,
  keptAnswers,
  learnedAsWritten,
  learnedWithoutHelp,
  referenceCharsOf,
  teacherCharsOf,
  requestsOf,
  strengthOf,
  type SampleRequest,
} from './answers.ts';
import { checkReprompt, forWaitingGroups } from './checks.ts';
import { Refusals } from './refusals.ts';
import type { TrainGroup } from '../train-group.ts';

/** What the rounds need of the trainer, at one step. */
export interface RoundsOfStep {
  step: number;
  /** The level now (the slider may move it while a step waits on the intervention). */
  level(): number;
  config: Pick<GrpoConfig, 'maxRounds' | 'groupSize' | 'keepFailed'>;
  family: TaskFamily;
  intervention: Intervention;
  guard: InterventionGuard;
  context(round: number): TrainContext;
  /** `count` answers for each request, in one batched generation (`round` keys its draws). */
  sample(requests: SampleRequest[], round: number): Promise<Attempt[][]>;
}

/**
 * What a step's rounds did: the log, what they sampled, the reference characters their help
 * showed, and the answers to distil in context.
 */
export interface RoundsResult {
  records: InterventionRecord[];
  tokens: number;
  rollouts: number;
  referenceChars: number;
  /** Characters of written solutions their help showed or taught (teacherCharsOf). */
  teacherChars: number;
  context: ContextTarget[];
}

const tokensOf = (answers: readonly Attempt[]) => answers.reduce((n, a) => n + a.tokens.length, 0);

/** The groups `indices` as the intervention reads them: the help's answers, not the kept ones. */
function scoredBatch(
  s: RoundsOfStep,
  groups: readonly TrainGroup[],
  indices: readonly number[],
  round: number,
): ScoredBatch {
  const { groupSize, keepFailed } = s.config;
  return {
    step: s.step,
    level: s.level(),
    round,
    groups: indices.map((g): ScoredGroup => ({
      group: g,
      problem: groups[g].problem,
      hint: groups[g].cue.hint,
      scaffold: groups[g].cue.scaffold,
      // A helped group's kept answers were not given its help: the intervention reads only
      // the re-attempts (or the answers it wrote).
      attempts: groups[g].attempts
        .slice(keptAnswers(groups[g].reprompt, groupSize, keepFailed))
        .map((a) => ({
          answer: a.answer,
          ended: a.ended,
          reward: a.verdict.reward,
          feedback: a.verdict.feedback,
          sampledTokens: a.tokens.length,
        })),
    })),
  };
}

/** The reprompts of a plan that pass the trainer's checks; the refused ones, events by cause. */
function checkedReprompts(
  s: RoundsOfStep,
  reprompts: readonly Reprompt[],
  groups: readonly TrainGroup[],
  events: string[],
): Reprompt[] {
  const refused = new Refusals();
  const valid = reprompts.filter((r) => {
    try {
      checkReprompt(r, groups[r.group].problem, s.family, s.config.groupSize);
      return true;
    } catch (e) {
      const cause = (e as Error).message;
      refused.add(cause, `group ${r.group}`, `reprompt for group ${r.group} rejected: ${cause}`);
      return false;
    }
  });
  refused.flushTo(events);
  return valid;
}

/**
 * Phase 2 of a step: the intervention's rounds. Each round shows it the groups still without
 * learning signal, samples fresh attempts with the help it plans, and puts them in the failed
 * groups' place (beside keepFailed of their unhelped answers). `groups` is updated in place.
 */
export async function repromptRounds(
  s: RoundsOfStep,
  groups: TrainGroup[],
  events: string[],
): Promise<RoundsResult> {
  const result: RoundsResult = {
    records: [],
    tokens: 0,
    rollouts: 0,
    referenceChars: 0,
    teacherChars: 0,
    context: [],
  };
  const G = s.config.groupSize;
  let pending = groups.map((_, i) => i);
  for (let round = 0; round < s.config.maxRounds && pending.length > 0; round++) {
    const batch = scoredBatch(s, groups, pending, round);
    const plan = () => s.intervention.plan(batch, s.context(round + 1));
    const planned = await s.guard.ask<unknown>('plan', plan, [], events, s.step);
    const reprompts = forWaitingGroups(
      s.intervention.name,
      planned,
      groups.length,
      pending,
      events,
    );
    if (reprompts.length === 0) break;
    const valid = checkedReprompts(s, reprompts, groups, events);
    // Refinements last, so the other re-attempts draw what they would without them; the draws
    // for context distillation under another hint (a placebo) after them all.
    const resampled = [
      ...valid.filter((r) => r.help.kind === 'retry'),
      ...valid.filter((r) => r.help.kind === 'refinement'),
    ];
    const requests = resampled.map((r) =>
      requestsOf(r.help as Retry | Refinement, groups[r.group].problem, G, s.config.keepFailed),
    );
    const otherHint = valid.filter((r) => distillsOtherHint(r.help));
    const drawn = await s.sample(
      [
        ...requests.flat(),
        // The distillation's own draws, under its hint and scaffold.
        ...otherHint.map((r) =>
          distillRequest(
            r.help as Retry & { distill: ContextDistill },
            groups[r.group].problem,
            G,
            s.config.keepFailed,
          ),
        ),
      ],
      round + 1,
    );
    let at = 0;
    const retried = requests.map((rs) => drawn.slice(at, (at += rs.length)).flat());
    const underOtherHint = drawn.slice(at);
    for (const answers of underOtherHint) {
      result.tokens += tokensOf(answers);
      result.rollouts += answers.length;
    }
    for (const r of valid) {
      const g = groups[r.group];
      const help = r.help;
      // What the help produced (for the log), and what joins the group's kept answers.
      let fresh: Attempt[];
      let joined: Attempt[];
      if (help.kind === 'demonstration') {
        // The intervention's answer in place of the last `count` of the group's own.
        const written = writtenAttempt(s.family, g.problem, help.answer);
        fresh = joined = Array.from({ length: help.count }, () => written);
      } else {
        fresh = retried[resampled.indexOf(r)];
        result.tokens += tokensOf(fresh);
        result.rollouts += fresh.length;
        if (help.kind === 'retry' && help.distill) {
          const i = otherHint.indexOf(r);
          const taught = i < 0 ? fresh : underOtherHint[i];
          const weight = help.distill.weight;
          for (const a of taught) result.context.push({ attempt: a, weight });
        }
        if (help.kind === 'refinement') joined = chosenRefinements(fresh, help.count);
        else joined = learnedAsWritten(help) ? fresh.map(learnedWithoutHelp) : fresh;
      }
      // Kept answers come first, so a later round keeps the same unhelped ones.
      const kept = g.attempts.slice(0, G - joined.length);
      const cue = promptOf(help);
      const shown = referenceCharsOf(help, g.problem);
      result.referenceChars += shown;
      result.teacherChars += teacherCharsOf(
        help,
        g.attempts.map((a) => a.answer),
      );
      groups[r.group] = {
        problem: g.problem,
        cue,
        attempts: [...kept, ...joined],
        reprompt: r,
      };
      result.records.push({
        step: s.step,
        group: r.group,
        round: round + 1,
        problem: g.problem.text,
        diagnosis: r.diagnosis ?? null,
        hint: cue.hint ? renderHint(cue.hint) : null,
        scaffold: cue.scaffold ?? null,
        strength: strengthOf(r, g.problem),
        reference_chars: shown,
        answer_chars: g.problem.answer.length,
        help_kind: help.kind,
        rewards: fresh.map((a) => a.verdict.reward),
        note: r.note,
        author: r.author ?? s.intervention.name,
        ...(r.declined ? { declined: { by: r.declined.by, why: r.declined.why } } : {}),
      });
    }
    const helped = valid.map((r) => r.group);
    const retryBatch = scoredBatch(s, groups, helped, round + 1);
    const observe = () => s.intervention.observe?.(retryBatch, s.context(round + 1));
    await s.guard.ask('observe', observe, undefined, events, s.step);
    pending = helped.filter((g) => allEqual(groups[g].attempts.map((a) => a.verdict.reward)));
  }
  return result;
}
