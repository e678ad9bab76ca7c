import type { Backend } from '../engine/backend.ts';
import { pcgHash } from '../engine/random.ts';
import { checkOptimizerState } from '../model/optimizer.ts';
import type { Transformer } from '../model/transformer.ts';
import {
  createRng,
  encode,
  hintStrength,
  renderHint,
  shareStrength,
  type Problem,
  type Rng,
  type TaskFamily,
} from '../tasks/index.ts';
import { distills, type GrpoConfig } from './config.ts';
import { levelAt } from './level-schedule.ts';
import { checkLrDecay, grpoLearningRate } from './lr-schedule.ts';
import {
  attempt,
  greedyAccuracy,
  writtenAttempt,
  type Attempt,
  type PromptHelp,
} from './evaluate.ts';
import {
  promptOf,
  type ContextDistill,
  type Help,
  type Intervention,
  type Refinement,
  type Reprompt,
  type Retry,
  type ScoredBatch,
  type ScoredGroup,
  type TrainContext,
} from './intervention.ts';
import { allEqual, mean, std, type InterventionRecord, type StepMetrics } from './metrics.ts';
import { fixedEvalSet } from './eval-set.ts';
import { contextDistillationRows, distillationRows, type ContextTarget } from './log-loss-rows.ts';
import { PolicyUpdate, type UpdateResult } from './policy-update.ts';
import { checkReprompt, forWaitingGroups } from './reprompt-checks.ts';
import { ReplayKeeper } from './replay-keeper.ts';
import { concatTokens } from './sequences.ts';
import { describeRollouts, type RolloutGroup } from './rollouts.ts';
import type { TrainGroup } from './train-group.ts';
import { checkCounters, type TrainingState } from './training-state.ts';

function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** A retry whose context distillation is from a hint other than its own: its answers are drawn apart. */
function distillsOtherHint(help: Help): boolean {
  if (help.kind !== 'retry' || !help.distill) return false;
  return !help.hint || renderHint(help.distill.hint) !== renderHint(help.hint);
}

/**
 * The refinements that join a group: `count` of them, passing ones first (Critique-GRPO keeps a
 * right refinement where there is one), each learned as an off-policy answer.
 */
function chosenRefinements(refinements: readonly Attempt[], count: number): Attempt[] {
  const passing = refinements.filter((a) => a.verdict.reward > 0);
  const failing = refinements.filter((a) => a.verdict.reward <= 0);
  return [...passing, ...failing].slice(0, count).map(learnedWithoutHelp);
}

/**
 * An answer sampled with help, as an off-policy answer of the unhinted prompt: all of it, a
 * scaffold it went on from included.
 */
function learnedWithoutHelp(a: Attempt): Attempt {
  const forced = encode(a.help.scaffold ?? '');
  const tokens = concatTokens(forced, a.tokens);
  const logprobs = new Float32Array(tokens.length).fill(NaN);
  logprobs.set(a.logprobs, forced.length);
  return { ...a, tokens, logprobs, offPolicy: 'helped' };
}

/** The help's strength: the intervention's own figure, else that of its hint or its scaffold. */
function strengthOf(r: Reprompt, problem: Problem): number {
  if (r.strength !== undefined) return r.strength;
  // A written answer shows all of it.
  if (r.help.kind === 'demonstration')
    return shareStrength(problem.answer.length, problem.answer.length);
  const { hint, scaffold } = promptOf(r.help);
  const hinted = hint ? hintStrength(problem, hint) : 0;
  // A scaffold is as strong as a prefix hint that shows the same characters.
  const forced = scaffold ? shareStrength(scaffold.length, problem.answer.length) : 0;
  return Math.max(hinted, forced);
}

/** Draws of a problem after its sampler failed before the step fails with it (drawProblem). */
const SAMPLE_RETRIES = 10;

/** A retry whose answers are learned in the bare prompt, as answers written without help. */
const learnedAsWritten = (help: Help) =>
  help.kind === 'retry' &&
  (help.learn === 'unhinted-shaped' || help.learn === 'unhinted-shaped-drawn');

/** What a step's first phase leaves for the others. */
interface SampledStep {
  groups: TrainGroup[];
  /** Rewards of the unhelped groups at the step's level, and of the replayed ones. */
  firstRewards: number[][];
  replayRewards: number[][];
  /** What sampling them cost. */
  tokens: number;
  rollouts: number;
}

/**
 * GRPO with an intervention hook. Each step: sample P prompts × G answers at the current level,
 * verify, let the intervention re-prompt failed groups (bounded rounds; a helped group takes the
 * failed group's place), compute group-relative advantages on the device, and update the policy
 * with a token-level policy-gradient loss (PPO-clipped when innerEpochs > 1). Hint, scaffold
 * and prompt tokens take loss only where the help says (learned-answer.ts); the trainer does not
 * interpret hints.
 */
export class GrpoTrainer {
  step = 0;
  private readonly updater: PolicyUpdate;
  private manualLevel: { level: number; from: number } | null = null;
  private lastLevel: number;
  private previousLevel: number | null = null;
  /** Every level trained at, in the order met: the levels of eval_accuracy_all. */
  private visitedLevels: number[];
  private levelSince = 0;
  private lastEval: number | null = null;
  private readonly replayKeeper: ReplayKeeper;
  private readonly base: Transformer | null;
  /** Updates skipped so far for a loss or gradient that was not finite (a resumed lane sets it). */
  skippedSteps = 0;
  /** What the verifier said of its own failures since the step began (Verdict.fault). */
  private readonly verifyFaults: string[] = [];
  /** The sampler's failures since the step began, each problem drawn again (drawProblem). */
  private readonly sampleFaults: string[] = [];
  /** The step at which a call on the intervention failed: it is not asked again in that step. */
  private interventionDown = -1;
  private readonly evalSets = new Map<number, Problem[]>();
  /** The groups of the latest step, for the rollout inspector. */
  rollouts: RolloutGroup[] = [];

  constructor(
    private readonly be: Backend,
    readonly model: Transformer,
    private readonly family: TaskFamily,
    readonly config: GrpoConfig,
    private readonly intervention: Intervention,
    opts: { base?: Transformer } = {},
  ) {
    if (config.klCoef > 0 && !opts.base) throw new Error('klCoef > 0 needs the base policy');
    if (distills(config) && !opts.base)
      throw new Error('distillation (distillCoef or distillMax above 0) needs the base policy');
    this.base = opts.base ?? null;
    if (
      !Number.isInteger(config.keepFailed) ||
      config.keepFailed < 0 ||
      config.keepFailed >= config.groupSize
    )
      throw new Error(`keepFailed must be an integer from 0 to ${config.groupSize - 1}`);
    if (!Number.isInteger(config.distillPrompts) || config.distillPrompts < 0)
      throw new Error(`distillPrompts must be a whole number, got ${config.distillPrompts}`);
    if (config.distillPrompts > 0 && !distills(config))
      throw new Error(
        'distillPrompts are learned by distillation: distillCoef or distillMax above 0',
      );
    checkLrDecay(config.lrDecay);
    this.updater = new PolicyUpdate(be, model, config, opts.base ?? null);
    this.replayKeeper = new ReplayKeeper(config);
    this.lastLevel = levelAt(config.schedule, 0);
    this.visitedLevels = [this.lastLevel];
  }

  /** The difficulty now: the live setting if one was made, else the schedule's. */
  get level(): number {
    return this.manualLevel ? this.manualLevel.level : levelAt(this.config.schedule, this.step);
  }

  /** Change the difficulty from the next step on (the UI's slider); overrides the schedule. */
  setLevel(level: number): void {
    const { min, max } = this.family.levels;
    if (!Number.isInteger(level) || level < min || level > max) {
      throw new RangeError(`level ${level} is outside ${min}..${max} for ${this.family.id}`);
    }
    this.manualLevel = { level, from: this.step };
  }

  evalSet(level: number): Problem[] {
    let set = this.evalSets.get(level);
    if (!set) {
      set = fixedEvalSet(this.family, level, this.config.evalSize);
      this.evalSets.set(level, set);
    }
    return set;
  }

  private context(round: number): TrainContext {
    return {
      step: this.step,
      level: this.level,
      groupSize: this.config.groupSize,
      round,
      maxRounds: this.config.maxRounds,
      evalAccuracy: this.lastEval,
      stepsAtLevel: this.step - this.levelSince,
    };
  }

  /** How many of a group's answers are its own unhelped ones, kept beside the help's. */
  private keptAnswers(r: Reprompt | null): number {
    if (!r) return 0;
    return r.help.kind === 'retry' ? this.config.keepFailed : this.config.groupSize - r.help.count;
  }

  private scored(
    groups: readonly TrainGroup[],
    indices: readonly number[],
    round: number,
  ): ScoredBatch {
    return {
      step: this.step,
      level: this.level,
      round,
      groups: indices.map((g): ScoredGroup => ({
        group: g,
        problem: groups[g].problem,
        hint: groups[g].help.hint,
        scaffold: groups[g].help.scaffold,
        // A helped group's kept answers were not given its help: the intervention reads only
        // the re-attempts (or the answers it wrote).
        attempts: groups[g].attempts.slice(this.keptAnswers(groups[g].reprompt)).map((a) => ({
          answer: a.answer,
          ended: a.ended,
          reward: a.verdict.reward,
          feedback: a.verdict.feedback,
          sampledTokens: a.tokens.length,
        })),
      })),
    };
  }

  private sampleProblems(): Problem[] {
    const { prompts, replayLevel } = this.config;
    const rng = createRng(this.config.seed).fork(`problems-${this.step}`);
    const replay =
      replayLevel !== null && replayLevel !== this.level ? this.replayKeeper.prompts() : 0;
    return Array.from({ length: prompts }, (_, i) =>
      this.drawProblem(i < replay ? (replayLevel as number) : this.level, rng),
    );
  }

  /**
   * A problem from the family, drawn again (the rng goes on) where its sampler fails — a task
   * module's code may — up to SAMPLE_RETRIES times, each failure reported as an event; a sampler
   * that fails every time fails the step.
   */
  private drawProblem(level: number, rng: Rng): Problem {
    for (let tries = 0; ; tries++) {
      try {
        return this.family.sample(level, rng);
      } catch (e) {
        if (tries >= SAMPLE_RETRIES) throw e;
        this.sampleFaults.push((e as Error).message);
      }
    }
  }

  /**
   * `count` answers for each item (the group size, or G − keepFailed for re-attempts beside kept
   * failures), in one batched generation.
   */
  private async sampleGroups(
    items: { problem: Problem; help: PromptHelp; count: number }[],
    round: number,
  ): Promise<Attempt[][]> {
    const flat = items.flatMap((it) => Array.from({ length: it.count }, () => it));
    const attempts = await attempt(this.model, this.family, flat, {
      temperature: this.config.temperature,
      topK: this.config.topK,
      seed: pcgHash((this.config.seed * 7919 + this.step) >>> 0),
      counter: round * 1_000_003,
    });
    for (const a of attempts) if (a.verdict.fault) this.verifyFaults.push(a.verdict.fault);
    let at = 0;
    return items.map((it) => attempts.slice(at, (at += it.count)));
  }

  /**
   * A call on the intervention, within the deadline. A failure or a missed deadline costs this
   * step that help (an event, then recover()), never the run; the rest of the step makes no
   * further calls, so a dead mentor costs at most one deadline per step.
   */
  private async ask<T>(
    what: string,
    call: () => T | Promise<T> | undefined,
    fallback: T,
    events: string[],
    inStep = true,
  ): Promise<T> {
    if (inStep && this.interventionDown === this.step) return fallback;
    const ms = this.config.mentorDeadlineMs;
    try {
      return (await withDeadline(Promise.resolve(call()), ms)) ?? fallback;
    } catch (e) {
      if (inStep) this.interventionDown = this.step;
      const where = inStep ? `at step ${this.step}` : `after step ${this.step - 1}`;
      const reason = `${this.intervention.name} ${what} failed ${where}: ${(e as Error).message}; going on without it`;
      events.push(reason);
      try {
        await withDeadline(Promise.resolve(this.intervention.recover?.(reason)), ms);
      } catch (err) {
        events.push(`${this.intervention.name} recovery failed: ${(err as Error).message}`);
      }
      return fallback;
    }
  }

  /**
   * One GRPO step; returns its metrics (eval_accuracy on eval steps). Its phases: sample a group
   * per prompt, let the intervention re-prompt failed groups for up to maxRounds rounds, update
   * the policy on the final groups, then measure.
   */
  async trainStep(): Promise<StepMetrics> {
    const t0 = performance.now();
    const level = this.enterLevel();
    const events: string[] = [];
    const sampled = await this.sampleStep(level);
    const rounds = await this.repromptRounds(sampled.groups, events);
    // After this step's replayed rollouts are counted: the weight answers what they show.
    const distillWeight = this.replayKeeper.distillWeight();
    const distill =
      distillWeight > 0
        ? await this.distillTargets(sampled.groups, level)
        : { targets: [], tokens: 0, rollouts: 0 };
    const distilled = distill.targets;
    const logLoss = [
      ...distillationRows(distilled, distillWeight),
      ...contextDistillationRows(rounds.context),
    ];
    const update = await this.updater.run(sampled.groups, this.step, logLoss);
    if (update.skipped) {
      this.skippedSteps++;
      events.push(
        `step ${this.step} skipped: its loss or gradient norm was not finite (${update.gradNorm ?? update.loss}); weights and optimizer unchanged`,
      );
    }
    this.rollouts = describeRollouts(sampled.groups, update.advantages, this.config.groupSize);
    const tokens = sampled.tokens + rounds.tokens;
    const faults = this.verifyFaults.splice(0);
    if (faults.length > 0)
      events.push(
        `the verifier failed on ${faults.length} answer${faults.length === 1 ? '' : 's'} this step, each scored 0; the first: ${faults[0]}`,
      );
    const unsampled = this.sampleFaults.splice(0);
    if (unsampled.length > 0)
      events.push(
        `the sampler failed ${unsampled.length} time${unsampled.length === 1 ? '' : 's'} this step, each problem drawn again; the first: ${unsampled[0]}`,
      );
    const metrics = this.stepMetrics(level, sampled, rounds.records, update, events);
    if (distilled.length > 0) {
      metrics.distill_weight = distillWeight;
      metrics.distilled = distilled.length;
    }
    if (rounds.context.length > 0) metrics.context_distilled = rounds.context.length;
    metrics.tokens_per_s = tokens / ((performance.now() - t0) / 1000);
    metrics.sampled_tokens = tokens + distill.tokens;
    metrics.rollouts = sampled.rollouts + rounds.rollouts + distill.rollouts;
    const stats = await this.interventionStats(events);
    if (Object.keys(stats).length > 0) metrics.intervention_stats = stats;
    this.step++;
    const due = this.evalDue();
    if (due) {
      metrics.eval_accuracy = await this.evaluate(level);
      // What the intervention is told comes from the regular evals only, so dense ones change nothing.
      if (due === 'regular') this.lastEval = metrics.eval_accuracy;
      if (this.previousLevel !== null)
        metrics.eval_accuracy_prev = await this.evaluate(this.previousLevel);
      await this.evaluateVisited(level, metrics);
    }
    return metrics;
  }

  /** Which eval, if any, ends the step just done: a regular one, or a dense one after a change. */
  private evalDue(): 'regular' | 'dense' | null {
    const { evalEvery, evalDenseEvery, evalDenseSteps } = this.config;
    if (this.step % evalEvery === 0) return 'regular';
    const since = this.step - this.levelSince;
    const dense =
      evalDenseEvery > 0 &&
      this.previousLevel !== null &&
      since <= evalDenseSteps &&
      since % evalDenseEvery === 0;
    return dense ? 'dense' : null;
  }

  /** eval_accuracy at every visited level (the two just measured reused) and their mean. */
  private async evaluateVisited(level: number, metrics: StepMetrics): Promise<void> {
    const byLevel: Record<string, number> = {};
    for (const l of this.visitedLevels) {
      if (l === level && metrics.eval_accuracy !== undefined) byLevel[l] = metrics.eval_accuracy;
      else if (l === this.previousLevel && metrics.eval_accuracy_prev !== undefined)
        byLevel[l] = metrics.eval_accuracy_prev;
      else byLevel[l] = await this.evaluate(l);
    }
    metrics.eval_accuracy_levels = byLevel;
    metrics.eval_accuracy_all = mean(Object.values(byLevel));
  }

  /** The level of this step; a change starts the count of steps at the level afresh. */
  private enterLevel(): number {
    const level = this.level;
    if (level !== this.lastLevel) {
      this.previousLevel = this.lastLevel;
      this.lastLevel = level;
      if (!this.visitedLevels.includes(level)) this.visitedLevels.push(level);
      this.levelSince = this.step;
      this.lastEval = null;
    }
    return level;
  }

  /** Phase 1: P problems (some replayed from an earlier level) and G unhelped answers to each. */
  private async sampleStep(level: number): Promise<SampledStep> {
    const problems = this.sampleProblems();
    const first = await this.sampleGroups(
      problems.map((problem) => ({ problem, help: {}, count: this.config.groupSize })),
      0,
    );
    const rewardsOf = (atLevel: boolean) =>
      first
        .filter((_, i) => (problems[i].level === level) === atLevel)
        .map((g) => g.map((a) => a.verdict.reward));
    const replayRewards = rewardsOf(false);
    this.replayKeeper.observe(replayRewards.flat());
    return {
      groups: problems.map((problem, i) => ({
        problem,
        help: {},
        attempts: first[i],
        reprompt: null,
      })),
      firstRewards: rewardsOf(true),
      replayRewards,
      tokens: first.flat().reduce((n, a) => n + a.tokens.length, 0),
      rollouts: first.flat().length,
    };
  }

  /**
   * The base's greedy answers to the step's replayed prompts and to `distillPrompts` more drawn
   * at the replay level, for distillation; an answer the base did not end is left out. Generated
   * afresh each step rather than cached: one batched greedy generation, where a cache over random
   * problems only grows.
   */
  private async distillTargets(
    groups: readonly TrainGroup[],
    level: number,
  ): Promise<{ targets: Attempt[]; tokens: number; rollouts: number }> {
    const none = { targets: [], tokens: 0, rollouts: 0 };
    const { replayLevel, distillPrompts } = this.config;
    if (!this.base || replayLevel === null || replayLevel === level) return none;
    const rng = createRng(this.config.seed).fork(`distill-${this.step}`);
    const problems = [
      ...groups.filter((g) => g.problem.level !== level).map((g) => g.problem),
      ...Array.from({ length: distillPrompts }, () => this.drawProblem(replayLevel, rng)),
    ];
    if (problems.length === 0) return none;
    const answers = await attempt(
      this.base,
      this.family,
      problems.map((problem) => ({ problem, help: {} })),
      { temperature: 0, seed: 0, counter: 0 },
    );
    return {
      targets: answers.filter((a) => a.ended),
      tokens: answers.reduce((n, a) => n + a.tokens.length, 0),
      rollouts: answers.length,
    };
  }

  /**
   * Phase 2: the intervention's rounds. Each round shows it the groups still without learning
   * signal, samples fresh attempts with the help it plans, and puts them in the failed groups'
   * place (beside keepFailed of their unhelped answers). `groups` is updated in place.
   */
  private async repromptRounds(
    groups: TrainGroup[],
    events: string[],
  ): Promise<{
    records: InterventionRecord[];
    tokens: number;
    rollouts: number;
    context: ContextTarget[];
  }> {
    const records: InterventionRecord[] = [];
    const context: ContextTarget[] = [];
    let tokens = 0;
    let rollouts = 0;
    let pending = groups.map((_, i) => i);
    for (let round = 0; round < this.config.maxRounds && pending.length > 0; round++) {
      const batch = this.scored(groups, pending, round);
      const plan = () => this.intervention.plan(batch, this.context(round + 1));
      const reprompts = forWaitingGroups(
        this.intervention.name,
        await this.ask<unknown>('plan', plan, [], events),
        groups.length,
        pending,
        events,
      );
      if (reprompts.length === 0) break;
      const valid = reprompts.filter((r) => {
        try {
          checkReprompt(r, groups[r.group].problem, this.family, this.config.groupSize);
          return true;
        } catch (e) {
          events.push(`reprompt for group ${r.group} rejected: ${(e as Error).message}`);
          return false;
        }
      });
      const G = this.config.groupSize;
      // Refinements last, so the other re-attempts draw what they would without them; the draws
      // for context distillation under another hint (a placebo) after them all.
      const resampled = [
        ...valid.filter((r) => r.help.kind === 'retry'),
        ...valid.filter((r) => r.help.kind === 'refinement'),
      ];
      const requests = resampled.map((r) =>
        this.requestsOf(r.help as Retry | Refinement, groups[r.group].problem),
      );
      const otherHint = valid.filter((r) => distillsOtherHint(r.help));
      const drawn = await this.sampleGroups(
        [
          ...requests.flat(),
          // The retry's own request, under the hint it distils from.
          ...otherHint.flatMap((r) => {
            const help = r.help as Retry & { distill: ContextDistill };
            return this.requestsOf({ ...help, hint: help.distill.hint }, groups[r.group].problem);
          }),
        ],
        round + 1,
      );
      let at = 0;
      const retried = requests.map((rs) => drawn.slice(at, (at += rs.length)).flat());
      const underOtherHint = drawn.slice(at);
      for (const answers of underOtherHint) {
        tokens += answers.reduce((n, a) => n + a.tokens.length, 0);
        rollouts += answers.length;
      }
      valid.forEach((r) => {
        const g = groups[r.group];
        // What the help produced (for the log), and what joins the group's kept answers.
        const help = r.help;
        let fresh: Attempt[];
        let joined: Attempt[];
        if (help.kind === 'demonstration') {
          // The intervention's answer in place of the last `count` of the group's own.
          const written = writtenAttempt(this.family, g.problem, help.answer);
          fresh = joined = Array.from({ length: help.count }, () => written);
        } else {
          fresh = retried[resampled.indexOf(r)];
          tokens += fresh.reduce((n, a) => n + a.tokens.length, 0);
          rollouts += fresh.length;
          if (help.kind === 'retry' && help.distill) {
            const i = otherHint.indexOf(r);
            const taught = i < 0 ? fresh : underOtherHint[i];
            const weight = help.distill.weight;
            for (const a of taught) context.push({ attempt: a, weight });
          }
          if (help.kind === 'refinement') joined = chosenRefinements(fresh, help.count);
          else joined = learnedAsWritten(help) ? fresh.map(learnedWithoutHelp) : fresh;
        }
        // Kept answers come first, so a later round keeps the same unhelped ones.
        const kept = g.attempts.slice(0, G - joined.length);
        const prompt = promptOf(help);
        groups[r.group] = {
          problem: g.problem,
          help: prompt,
          attempts: [...kept, ...joined],
          reprompt: r,
        };
        records.push({
          step: this.step,
          group: r.group,
          round: round + 1,
          problem: g.problem.text,
          diagnosis: r.diagnosis ?? null,
          hint: prompt.hint ? renderHint(prompt.hint) : null,
          scaffold: prompt.scaffold ?? null,
          strength: strengthOf(r, g.problem),
          rewards: fresh.map((a) => a.verdict.reward),
          note: r.note,
          author: r.author ?? this.intervention.name,
        });
      });
      const retryBatch = this.scored(
        groups,
        valid.map((r) => r.group),
        round + 1,
      );
      const observe = () => this.intervention.observe?.(retryBatch, this.context(round + 1));
      await this.ask('observe', observe, undefined, events);
      pending = valid
        .map((r) => r.group)
        .filter((g) => allEqual(groups[g].attempts.map((a) => a.verdict.reward)));
    }
    return { records, tokens, rollouts, context };
  }

  /** What sampling a reprompt's help asks: G − keepFailed retries, G refinements, or one per critique. */
  private requestsOf(
    help: Retry | Refinement,
    problem: Problem,
  ): { problem: Problem; help: PromptHelp; count: number }[] {
    const G = this.config.groupSize;
    if (help.kind === 'retry')
      return [{ problem, help: promptOf(help), count: G - this.config.keepFailed }];
    if (help.perAnswer)
      return help.perAnswer.map((critique) => ({
        problem,
        help: { hint: critique, scaffold: help.scaffold },
        count: 1,
      }));
    return [{ problem, help: promptOf(help), count: G }];
  }

  /** Phase 4: what the step did, in TRL's names where there is one (tokens_per_s set by the caller). */
  private stepMetrics(
    level: number,
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
      step: this.step,
      level,
      method: this.intervention.name,
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
      lr: grpoLearningRate(this.config, this.step),
      skipped_steps: this.skippedSteps,
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

  private interventionStats(events: string[]): Promise<Record<string, number>> {
    return this.ask('stats', () => this.intervention.stats?.(), {}, events);
  }

  /**
   * Everything needed to go on from here (between steps): weights and AdamW's moments in one
   * read, the counters, and the intervention's state within the deadline. What went wrong (the
   * intervention did not answer) is pushed to `problems`; the state is still whole without it.
   */
  async saveState(problems: string[] = []): Promise<TrainingState> {
    const params = this.model.params.list;
    const moments = this.updater.opt.momentTensors();
    const data = await this.be.readMany([
      ...params.map((p) => p.value),
      ...moments.map((m) => m.tensor),
    ]);
    const state: TrainingState = {
      model: { ...this.model.config },
      counters: {
        step: this.step,
        skippedSteps: this.skippedSteps,
        manualLevel: this.manualLevel && { ...this.manualLevel },
        lastLevel: this.lastLevel,
        previousLevel: this.previousLevel,
        levelSince: this.levelSince,
        lastEval: this.lastEval,
        visitedLevels: [...this.visitedLevels],
        replaySuccess: this.replayKeeper.success,
      },
      weights: params.map((p, i) => ({
        name: p.spec.name,
        shape: [...p.spec.shape],
        data: data[i],
      })),
      optimizer: {
        step: this.updater.opt.step,
        moments: moments.map((m, i) => ({
          name: m.name,
          shape: m.shape,
          data: data[params.length + i],
        })),
      },
    };
    // A mentor that failed in the step just done was restarted afresh: nothing to save, and no
    // second deadline to wait for.
    if (this.intervention.saveState && this.interventionDown !== this.step - 1) {
      const save = () => this.intervention.saveState?.();
      const saved = await this.ask('saveState', save, undefined, problems, false);
      if (saved !== undefined && saved !== null) state.intervention = saved;
    }
    return state;
  }

  /**
   * Go on from a saved state: everything is checked (architecture, every tensor, the counters)
   * before anything changes. The intervention's part is handed over within the deadline; what
   * went wrong there is pushed to `problems` (the intervention then starts afresh).
   */
  async restoreState(state: TrainingState, problems: string[] = []): Promise<void> {
    const want = JSON.stringify(this.model.config);
    if (JSON.stringify(state.model) !== want)
      throw new Error(`training state: its model ${JSON.stringify(state.model)} is not ${want}`);
    const counters = checkCounters(state.counters);
    const { min, max } = this.family.levels;
    const visited = counters.visitedLevels ?? [
      ...(counters.previousLevel === null ? [] : [counters.previousLevel]),
      counters.lastLevel,
    ];
    const levels = [
      counters.lastLevel,
      counters.previousLevel,
      counters.manualLevel?.level,
      ...visited,
    ];
    const outside = levels.find((l) => l !== null && l !== undefined && (l < min || l > max));
    if (outside !== undefined)
      throw new Error(`training state: level ${outside} is outside ${min}..${max}`);
    // Both checked before either is written: a bad state changes nothing.
    this.model.params.check(state.weights);
    checkOptimizerState(
      this.model.params.list.map((p) => p.spec),
      state.optimizer,
    );
    this.model.params.assign(state.weights);
    this.updater.opt.restoreState(state.optimizer);
    this.step = counters.step;
    this.skippedSteps = counters.skippedSteps;
    this.manualLevel = counters.manualLevel && { ...counters.manualLevel };
    this.lastLevel = counters.lastLevel;
    this.previousLevel = counters.previousLevel;
    this.levelSince = counters.levelSince;
    this.lastEval = counters.lastEval;
    this.visitedLevels = [...visited];
    this.replayKeeper.restore(counters.replaySuccess ?? 1);
    if (state.intervention !== undefined && this.intervention.restoreState) {
      const restore = () => this.intervention.restoreState?.(state.intervention);
      this.interventionDown = -1;
      await this.ask('restoreState', restore, undefined, problems, false);
    }
  }

  /** Greedy, unhinted accuracy on the fixed eval set of a level. */
  async evaluate(level: number): Promise<number> {
    return (await greedyAccuracy(this.model, this.family, this.evalSet(level))).accuracy;
  }

  free(): void {
    this.updater.free();
  }
}
