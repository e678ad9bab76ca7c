import type { Backend } from '../engine/backend.ts';
import { pcgHash } from '../engine/random.ts';
import { checkOptimizerState } from '../model/optimizer.ts';
import type { Transformer } from '../model/transformer.ts';
import { createRng, type Problem, type Rng, type TaskFamily } from '../tasks/index.ts';
import { distills, type GrpoConfig } from './config.ts';
import { settingConflict } from './settings.ts';
import { checkLrDecay, grpoLearningRate } from './lr-schedule.ts';
import { attempt, greedyAccuracy, type Attempt } from './sampler.ts';
import type { Intervention, TrainContext } from './intervention.ts';
import { InterventionGuard } from './intervention-guard.ts';
import { LevelTracker } from './level-tracker.ts';
import type { LevelChange } from './level-schedule.ts';
import { mean, type StepMetrics } from './metrics.ts';
import { fixedEvalSet } from './eval-set.ts';
import { contextDistillationRows, distillationRows } from './log-loss-rows.ts';
import { PolicyUpdate } from './policy-update.ts';
import type { SampleRequest } from './reprompt/answers.ts';
import { repromptRounds, type RoundsOfStep } from './reprompt/rounds.ts';
import { ReplayKeeper } from './replay-keeper.ts';
import { describeRollouts, type RolloutGroup } from './rollouts.ts';
import { stepMetrics, type SampledStep } from './step-metrics.ts';
import type { TrainGroup } from './train-group.ts';
import { checkCounters, type TrainingState } from './training-state.ts';

/** Draws of a problem after its sampler failed before the step fails with it (drawProblem). */
const SAMPLE_RETRIES = 10;

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
  private readonly levels: LevelTracker;
  private readonly guard: InterventionGuard;
  private readonly replayKeeper: ReplayKeeper;
  private readonly base: Transformer | null;
  /** Updates skipped so far for a loss or gradient that was not finite (a resumed lane sets it). */
  skippedSteps = 0;
  /** What the verifier said of its own failures since the step began (Verdict.fault). */
  private readonly verifyFaults: string[] = [];
  /** The sampler's failures since the step began, each problem drawn again (drawProblem). */
  private readonly sampleFaults: string[] = [];
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
    for (const key of ['keepFailed', 'distillPrompts'] as const)
      if (!Number.isInteger(config[key]) || config[key] < 0)
        throw new Error(`${key} must be a whole number, got ${config[key]}`);
    // The rules between settings are the command line's and the page's (src/rl/settings.ts).
    const conflict = settingConflict(config, (s) => s.key);
    if (conflict) throw new Error(conflict);
    checkLrDecay(config.lrDecay);
    this.updater = new PolicyUpdate(be, model, config, opts.base ?? null);
    this.replayKeeper = new ReplayKeeper(config);
    this.levels = new LevelTracker(config.schedule, family.levels, family.id);
    this.guard = new InterventionGuard(intervention, config.mentorDeadlineMs);
  }

  /** The difficulty now: the followed schedule's (live changes in it). */
  get level(): number {
    return this.levels.at(this.step);
  }

  /** Change the difficulty from the next step on (the UI's slider); overrides the schedule. */
  setLevel(level: number): void {
    this.levels.set(level, this.step);
  }

  /**
   * The intervention is another from the next step on (a person applied new code): it is asked
   * afresh, whatever its predecessor's failures had set aside.
   */
  interventionChanged(): void {
    this.guard.reset();
  }

  /** The schedule the run follows, every live change in it (what a page writes to its URL). */
  get followedSchedule(): LevelChange[] {
    return this.levels.followed;
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
      evalAccuracy: this.levels.lastEval,
      stepsAtLevel: this.step - this.levels.since,
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
  private async sampleGroups(items: SampleRequest[], round: number): Promise<Attempt[][]> {
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
   * One GRPO step; returns its metrics (eval_accuracy on eval steps). Its phases: sample a group
   * per prompt, let the intervention re-prompt failed groups for up to maxRounds rounds, update
   * the policy on the final groups, then measure.
   */
  async trainStep(): Promise<StepMetrics> {
    const t0 = performance.now();
    const level = this.levels.enter(this.step);
    const events: string[] = [];
    const sampled = await this.sampleStep(level);
    const rounds = await repromptRounds(this.roundsOfStep(), sampled.groups, events);
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
    this.rollouts = describeRollouts(
      this.family,
      sampled.groups,
      update.advantages,
      this.config.groupSize,
      level,
    );
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
    const tag = {
      step: this.step,
      level,
      method: this.intervention.name,
      lr: grpoLearningRate(this.config, this.step),
      skippedSteps: this.skippedSteps,
    };
    const metrics = stepMetrics(tag, sampled, rounds.records, update, events);
    if (distilled.length > 0) {
      metrics.distill_weight = distillWeight;
      metrics.distilled = distilled.length;
    }
    if (rounds.context.length > 0) metrics.context_distilled = rounds.context.length;
    metrics.tokens_per_s = tokens / ((performance.now() - t0) / 1000);
    metrics.sampled_tokens = tokens + distill.tokens;
    metrics.rollouts = sampled.rollouts + rounds.rollouts + distill.rollouts;
    metrics.reference_chars = rounds.referenceChars;
    metrics.teacher_tokens = rounds.teacherChars;
    const stats = await this.interventionStats(events);
    if (Object.keys(stats).length > 0) metrics.intervention_stats = stats;
    this.step++;
    const due = this.evalDue();
    if (due) {
      metrics.eval_accuracy = await this.evaluate(level);
      // What the intervention is told comes from the regular evals only, so dense ones change nothing.
      if (due === 'regular') this.levels.recordEval(metrics.eval_accuracy);
      if (this.levels.previous !== null)
        metrics.eval_accuracy_prev = await this.evaluate(this.levels.previous);
      await this.evaluateVisited(level, metrics);
    }
    return metrics;
  }

  /** Which eval, if any, ends the step just done: a regular one, or a dense one after a change. */
  private evalDue(): 'regular' | 'dense' | null {
    const { evalEvery, evalDenseEvery, evalDenseSteps } = this.config;
    if (this.step % evalEvery === 0) return 'regular';
    const since = this.step - this.levels.since;
    const dense =
      evalDenseEvery > 0 &&
      this.levels.previous !== null &&
      since <= evalDenseSteps &&
      since % evalDenseEvery === 0;
    return dense ? 'dense' : null;
  }

  /** eval_accuracy at every visited level (the two just measured reused) and their mean. */
  private async evaluateVisited(level: number, metrics: StepMetrics): Promise<void> {
    const byLevel: Record<string, number> = {};
    for (const l of this.levels.visited) {
      if (l === level && metrics.eval_accuracy !== undefined) byLevel[l] = metrics.eval_accuracy;
      else if (l === this.levels.previous && metrics.eval_accuracy_prev !== undefined)
        byLevel[l] = metrics.eval_accuracy_prev;
      else byLevel[l] = await this.evaluate(l);
    }
    metrics.eval_accuracy_levels = byLevel;
    metrics.eval_accuracy_all = mean(Object.values(byLevel));
  }

  /** What the intervention's rounds need of this step (reprompt/rounds.ts). */
  private roundsOfStep(): RoundsOfStep {
    return {
      step: this.step,
      level: () => this.level,
      config: this.config,
      family: this.family,
      intervention: this.intervention,
      guard: this.guard,
      context: (round) => this.context(round),
      sample: (requests, round) => this.sampleGroups(requests, round),
    };
  }

  /** Phase 1: P problems (some replayed from an earlier level) and G unhelped answers to each. */
  private async sampleStep(level: number): Promise<SampledStep> {
    const problems = this.sampleProblems();
    const first = await this.sampleGroups(
      problems.map((problem) => ({ problem, cue: {}, count: this.config.groupSize })),
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
        cue: {},
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
      problems.map((problem) => ({ problem, cue: {} })),
      { temperature: 0, seed: 0, counter: 0 },
    );
    return {
      targets: answers.filter((a) => a.ended),
      tokens: answers.reduce((n, a) => n + a.tokens.length, 0),
      rollouts: answers.length,
    };
  }

  private interventionStats(events: string[]): Promise<Record<string, number>> {
    const stats = () => this.intervention.stats?.();
    return this.guard.ask('stats', stats, {}, events, this.step);
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
        ...this.levels.counters(),
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
    if (this.intervention.saveState && !this.guard.failedIn(this.step - 1)) {
      const save = () => this.intervention.saveState?.();
      const saved = await this.guard.ask('saveState', save, undefined, problems, this.step, false);
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
    const levels = this.levels.check(counters, counters.step);
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
    this.levels.restore(levels);
    this.replayKeeper.restore(counters.replaySuccess ?? 1);
    if (state.intervention !== undefined && this.intervention.restoreState) {
      const restore = () => this.intervention.restoreState?.(state.intervention);
      this.guard.reset();
      await this.guard.ask('restoreState', restore, undefined, problems, this.step, false);
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
