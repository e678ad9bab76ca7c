import type { Backend, Tensor } from '../engine/backend.ts';
import { gatherScale, groupNormalize } from '../engine/kernels/advantage.ts';
import { pcgHash } from '../engine/random.ts';
import { AdamW, DEFAULT_OPTIMIZER } from '../model/optimizer.ts';
import type { Transformer } from '../model/transformer.ts';
import {
  PAD,
  createRng,
  decode,
  encodePrompt,
  hintStrength,
  promptText,
  renderHint,
  type Problem,
  type TaskFamily,
} from '../tasks/index.ts';
import { levelAt, type GrpoConfig } from './config.ts';
import { attempt, greedyAccuracy, type Attempt, type Help } from './evaluate.ts';
import type {
  Intervention,
  Reprompt,
  ScoredBatch,
  ScoredGroup,
  TrainContext,
} from './intervention.ts';
import { allEqual, mean, std, type InterventionRecord, type StepMetrics } from './metrics.ts';
import { weightedBatch } from './sequences.ts';

/** Problems of the fixed eval sets come from this seed, the same for every run and method. */
const EVAL_SEED = 0x5eed;

interface Group {
  problem: Problem;
  help: Help;
  attempts: Attempt[];
  reprompt: Reprompt | null;
}

/** One group of the latest step as the rollout inspector shows it. */
export interface RolloutGroup {
  group: number;
  /** The prompt as the policy read it (hint slot included), and any forced scaffold. */
  prompt: string;
  hint: string | null;
  scaffold: string | null;
  attempts: {
    /** The sampled tokens as text, one entry per token (the end token as "."). */
    tokens: string[];
    /** Probability of each sampled token under the policy that drew it. */
    probs: number[];
    answer: string;
    reward: number;
    advantage: number;
  }[];
}

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

/** 1–3 from the share of the answer a scaffold forces (thirds), as for prefix hints. */
function scaffoldStrength(problem: Problem, scaffold: string): number {
  const share = scaffold.length / Math.max(1, problem.answer.length);
  return share <= 1 / 3 ? 1 : share <= 2 / 3 ? 2 : 3;
}

function strengthOf(r: Reprompt, problem: Problem): number {
  if (r.strength !== undefined) return r.strength;
  const hint = r.hint ? hintStrength(problem, r.hint) : 0;
  const scaffold = r.scaffold ? scaffoldStrength(problem, r.scaffold) : 0;
  return Math.max(hint, scaffold);
}

/**
 * GRPO with an intervention hook. Each step: sample P prompts × G answers at the current level,
 * verify, let the intervention re-prompt failed groups (bounded rounds; a helped group takes the
 * failed group's place), compute group-relative advantages on the device, and update the policy
 * with a token-level policy-gradient loss (PPO-clipped when innerEpochs > 1). Hint, scaffold
 * and prompt tokens never receive loss; the trainer does not interpret hints.
 */
export class GrpoTrainer {
  step = 0;
  private readonly opt: AdamW;
  private readonly base: Transformer | null;
  private manualLevel: { level: number; from: number } | null = null;
  private lastLevel: number;
  private previousLevel: number | null = null;
  private levelSince = 0;
  private lastEval: number | null = null;
  private readonly evalSets = new Map<number, Problem[]>();
  private readonly rewards: Tensor<'f32'>;
  private readonly advantages: Tensor<'f32'>;
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
    this.opt = new AdamW(model, {
      ...DEFAULT_OPTIMIZER,
      lr: config.lr,
      weightDecay: 0,
      maxGradNorm: config.maxGradNorm,
    });
    this.base = opts.base ?? null;
    if (config.klCoef > 0 && !this.base) throw new Error('klCoef > 0 needs the base policy');
    this.lastLevel = levelAt(config.schedule, 0);
    const n = config.prompts * config.groupSize;
    this.rewards = be.alloc(n, 'f32', 'rewards');
    this.advantages = be.alloc(n, 'f32', 'advantages');
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
      const rng = createRng(EVAL_SEED).fork(`eval-${this.family.id}-${level}`);
      set = Array.from({ length: this.config.evalSize }, () => this.family.sample(level, rng));
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

  private scored(groups: readonly Group[], indices: readonly number[], round: number): ScoredBatch {
    return {
      step: this.step,
      level: this.level,
      round,
      groups: indices.map((g): ScoredGroup => ({
        group: g,
        problem: groups[g].problem,
        hint: groups[g].help.hint,
        scaffold: groups[g].help.scaffold,
        attempts: groups[g].attempts.map((a) => ({
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
    const { prompts, replayShare, replayLevel } = this.config;
    const rng = createRng(this.config.seed).fork(`problems-${this.step}`);
    const replay =
      replayLevel !== null && replayLevel !== this.level ? Math.round(prompts * replayShare) : 0;
    return Array.from({ length: prompts }, (_, i) =>
      this.family.sample(i < replay ? (replayLevel as number) : this.level, rng),
    );
  }

  private async sampleGroups(
    items: { problem: Problem; help: Help }[],
    round: number,
  ): Promise<Attempt[][]> {
    const G = this.config.groupSize;
    const flat = items.flatMap((it) => Array.from({ length: G }, () => it));
    const attempts = await attempt(this.model, this.family, flat, {
      temperature: this.config.temperature,
      topK: this.config.topK,
      seed: pcgHash((this.config.seed * 7919 + this.step) >>> 0),
      counter: round * 1_000_003,
    });
    return items.map((_, i) => attempts.slice(i * G, (i + 1) * G));
  }

  /** Ask the intervention, within the deadline; a failure costs this step its help, not the run. */
  private async plan(batch: ScoredBatch, round: number, events: string[]): Promise<Reprompt[]> {
    try {
      return await withDeadline(
        this.intervention.plan(batch, this.context(round)),
        this.config.planDeadlineMs,
      );
    } catch (e) {
      const reason = `${this.intervention.name} plan failed at step ${this.step}: ${(e as Error).message}; going on without help`;
      events.push(reason);
      try {
        await this.intervention.recover?.(reason);
      } catch (err) {
        events.push(`${this.intervention.name} recovery failed: ${(err as Error).message}`);
      }
      return [];
    }
  }

  /** One GRPO step; returns its metrics (eval_accuracy on eval steps). */
  async trainStep(): Promise<StepMetrics> {
    const t0 = performance.now();
    const level = this.level;
    if (level !== this.lastLevel) {
      this.previousLevel = this.lastLevel;
      this.lastLevel = level;
      this.levelSince = this.step;
      this.lastEval = null;
    }
    const events: string[] = [];
    const problems = this.sampleProblems();
    const first = await this.sampleGroups(
      problems.map((problem) => ({ problem, help: {} })),
      0,
    );
    const groups: Group[] = problems.map((problem, i) => ({
      problem,
      help: {},
      attempts: first[i],
      reprompt: null,
    }));
    let sampledTokens = first.flat().reduce((n, a) => n + a.tokens.length, 0);
    const firstRewards = first.map((g) => g.map((a) => a.verdict.reward));

    const records: InterventionRecord[] = [];
    let pending = groups.map((_, i) => i);
    for (let round = 0; round < this.config.maxRounds && pending.length > 0; round++) {
      const batch = this.scored(groups, pending, round);
      const reprompts = (await this.plan(batch, round + 1, events)).filter((r) =>
        pending.includes(r.group),
      );
      if (reprompts.length === 0) break;
      const valid: Reprompt[] = [];
      for (const r of reprompts) {
        try {
          encodePrompt(groups[r.group].problem, { hint: r.hint, scaffold: r.scaffold });
          valid.push(r);
        } catch (e) {
          events.push(`reprompt for group ${r.group} rejected: ${(e as Error).message}`);
        }
      }
      const retried = await this.sampleGroups(
        valid.map((r) => ({
          problem: groups[r.group].problem,
          help: { hint: r.hint, scaffold: r.scaffold },
        })),
        round + 1,
      );
      valid.forEach((r, i) => {
        const g = groups[r.group];
        groups[r.group] = {
          problem: g.problem,
          help: { hint: r.hint, scaffold: r.scaffold },
          attempts: retried[i],
          reprompt: r,
        };
        sampledTokens += retried[i].reduce((n, a) => n + a.tokens.length, 0);
        records.push({
          step: this.step,
          group: r.group,
          round: round + 1,
          problem: g.problem.text,
          diagnosis: r.diagnosis ?? null,
          hint: r.hint ? renderHint(r.hint) : null,
          scaffold: r.scaffold ?? null,
          strength: strengthOf(r, g.problem),
          rewards: retried[i].map((a) => a.verdict.reward),
          note: r.note,
          author: r.author ?? this.intervention.name,
        });
      });
      const retryBatch = this.scored(
        groups,
        valid.map((r) => r.group),
        round + 1,
      );
      try {
        await this.intervention.observe?.(retryBatch, this.context(round + 1));
      } catch (e) {
        events.push(`${this.intervention.name} observe failed: ${(e as Error).message}`);
      }
      pending = valid
        .map((r) => r.group)
        .filter((g) => allEqual(groups[g].attempts.map((a) => a.verdict.reward)));
    }

    const update = await this.update(groups);
    this.rollouts = this.describe(groups, update.advantages);
    const helped = groups.filter((g) => g.reprompt);
    const finalRewards = groups.map((g) => g.attempts.map((a) => a.verdict.reward));
    const allTokens = groups.flatMap((g) => g.attempts.flatMap((a) => Array.from(a.logprobs)));
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
      completion_length: mean(groups.flatMap((g) => g.attempts.map((a) => a.tokens.length))),
      entropy: allTokens.length ? -mean(allTokens) : 0,
      kl: update.kl,
      clip_ratio: update.clipRatio,
      grad_norm: update.gradNorm,
      loss: update.loss,
      tokens_per_s: sampledTokens / ((performance.now() - t0) / 1000),
      interventions: records,
      events,
    };
    const stats = await this.interventionStats(events);
    if (Object.keys(stats).length > 0) metrics.intervention_stats = stats;
    this.step++;
    if (this.step % this.config.evalEvery === 0) {
      metrics.eval_accuracy = await this.evaluate(level);
      this.lastEval = metrics.eval_accuracy;
      if (this.previousLevel !== null)
        metrics.eval_accuracy_prev = await this.evaluate(this.previousLevel);
    }
    return metrics;
  }

  private async interventionStats(events: string[]): Promise<Record<string, number>> {
    try {
      return (await this.intervention.stats?.()) ?? {};
    } catch (e) {
      events.push(`${this.intervention.name} stats failed: ${(e as Error).message}`);
      return {};
    }
  }

  /** Greedy, unhinted accuracy on the fixed eval set of a level. */
  async evaluate(level: number): Promise<number> {
    return (await greedyAccuracy(this.model, this.family, this.evalSet(level))).accuracy;
  }

  /**
   * Advantages on the device ((r − mean)/(std + ε) per group, exactly 0 for all-equal groups),
   * spread over each answer's sampled tokens with token-level normalisation, then AdamW. A step
   * whose every group is all-equal has no gradient at all and leaves the policy untouched.
   */
  private async update(groups: Group[]): Promise<{
    loss: number;
    gradNorm: number | null;
    kl: number | null;
    clipRatio: number;
    advantages: Float32Array;
  }> {
    const { prompts, groupSize: G } = this.config;
    const rewards = new Float32Array(prompts * G);
    groups.forEach((g, i) => g.attempts.forEach((a, j) => (rewards[i * G + j] = a.verdict.reward)));
    const informative = groups.map((g) => !allEqual(g.attempts.map((a) => a.verdict.reward)));
    if (!informative.some(Boolean))
      return {
        loss: 0,
        gradNorm: null,
        kl: null,
        clipRatio: 0,
        advantages: new Float32Array(prompts * G),
      };

    this.be.write(this.rewards, rewards);
    groupNormalize(this.be, this.advantages, this.rewards, {
      groups: prompts,
      size: G,
      scaleByStd: this.config.scaleRewards,
    });
    // Token-level normalisation over every answer token of the batch, as TRL's default loss.
    const totalTokens = groups.reduce(
      (n, g) => n + g.attempts.reduce((m, a) => m + a.tokens.length, 0),
      0,
    );
    const seqs: { tokens: Uint32Array; lossStart: number; weight: number }[] = [];
    const seqAdvIndex: number[] = [];
    // Sampling log-probs of answers drawn with a hint but trained without it (NaN elsewhere).
    const behaviour: (Float32Array | null)[] = [];
    groups.forEach((g, i) => {
      if (!informative[i]) return;
      const unhinted = g.reprompt?.unhintedLoss === true && g.help.hint !== undefined;
      const prompt = encodePrompt(g.problem, unhinted ? { scaffold: g.help.scaffold } : g.help);
      g.attempts.forEach((a, j) => {
        const tokens = new Uint32Array(prompt.tokens.length + a.tokens.length);
        tokens.set(prompt.tokens);
        tokens.set(a.tokens, prompt.tokens.length);
        seqs.push({ tokens, lossStart: prompt.sampleStart, weight: 1 / totalTokens });
        seqAdvIndex.push(i * G + j);
        behaviour.push(unhinted ? a.logprobs : null);
      });
    });
    const { batch, weights: coef, rowSequence } = weightedBatch(seqs, PAD);
    const index = Uint32Array.from(rowSequence, (b) => seqAdvIndex[b]);
    const rows = batch.B * batch.T;
    const behaviourRow = new Float32Array(rows).fill(NaN);
    seqs.forEach((sq, b) => {
      const lp = behaviour[b];
      if (!lp) return;
      const off = batch.start[b];
      lp.forEach((v, t) => (behaviourRow[b * batch.T + off + sq.lossStart + t - 1] = v));
    });
    const offPolicy = behaviour.some((b) => b !== null);
    const indexT = this.be.alloc(rows, 'u32', 'row advantage index');
    const coefT = this.be.alloc(rows, 'f32', 'row token coefficient');
    this.be.write(indexT, index);
    this.be.write(coefT, coef);

    let oldLogp: Float32Array | null = null;
    let refLogp: Float32Array | null = null;
    let advantages: Float32Array | null = null;
    let loss = 0;
    let clipped = 0;
    let kl: number | null = null;
    try {
      if (this.base && this.config.klCoef > 0) refLogp = (await this.base.score(batch)).logp;
      for (let epoch = 0; epoch < this.config.innerEpochs; epoch++) {
        this.model.forwardTrain(batch);
        const needStats = epoch > 0 || refLogp !== null || epoch === this.config.innerEpochs - 1;
        const logp = needStats ? (await this.model.readTrainStats()).logp : null;
        if (epoch === 0) oldLogp = logp;
        if (epoch === 0 && !refLogp && !offPolicy) {
          gatherScale(this.be, this.model.weightsTensor(), this.advantages, indexT, coefT, rows);
          if (logp) loss = -dot(await this.be.read(this.model.weightsTensor()), logp, rows);
          this.model.backward();
        } else {
          advantages ??= await this.be.read(this.advantages);
          const w = new Float32Array(rows);
          let klSum = 0;
          let active = 0;
          clipped = 0;
          for (let n = 0; n < rows; n++) {
            if (coef[n] === 0 || !logp || !oldLogp) continue;
            const A = advantages[index[n]];
            const ratio = Math.exp(logp[n] - oldLogp[n]);
            const clip =
              (A > 0 && ratio > 1 + this.config.clipEps) ||
              (A < 0 && ratio < 1 - this.config.clipEps);
            if (clip) clipped++;
            active++;
            // Truncated importance weight of a hinted sample scored in the unhinted context.
            const is = Number.isNaN(behaviourRow[n])
              ? 1
              : Math.min(this.config.isClip, Math.exp(oldLogp[n] - behaviourRow[n]));
            w[n] = clip ? 0 : coef[n] * A * ratio * is;
            if (refLogp) {
              const d = refLogp[n] - logp[n];
              klSum += Math.exp(d) - d - 1;
              w[n] += coef[n] * this.config.klCoef * (Math.exp(d) - 1);
            }
          }
          if (refLogp) kl = klSum / Math.max(1, active);
          clipped = clipped / Math.max(1, active);
          loss = -dot(w, logp as Float32Array, rows);
          this.model.backward(w);
        }
        this.opt.update(
          this.config.lr * Math.min(1, (this.step + 1) / Math.max(1, this.config.lrWarmupSteps)),
        );
      }
    } finally {
      this.be.free(indexT);
      this.be.free(coefT);
    }
    return {
      loss,
      gradNorm: await this.opt.gradNorm(),
      kl,
      clipRatio: clipped,
      advantages: advantages ?? (await this.be.read(this.advantages)),
    };
  }

  private describe(groups: readonly Group[], advantages: Float32Array): RolloutGroup[] {
    const G = this.config.groupSize;
    return groups.map((g, i) => ({
      group: i,
      prompt: promptText(g.problem, g.help.hint),
      hint: g.help.hint ? renderHint(g.help.hint) : null,
      scaffold: g.help.scaffold ?? null,
      attempts: g.attempts.map((a, j) => ({
        tokens: Array.from(a.tokens, (t) => decode([t])),
        probs: Array.from(a.logprobs, (lp) => Math.exp(lp)),
        answer: a.answer,
        reward: a.verdict.reward,
        advantage: advantages[i * G + j],
      })),
    }));
  }

  free(): void {
    this.opt.free();
    this.be.free(this.rewards);
    this.be.free(this.advantages);
  }
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}
