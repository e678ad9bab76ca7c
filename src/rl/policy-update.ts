import type { Backend, Tensor } from '../engine/backend.ts';
import { gatherScale, groupNormalize } from '../engine/kernels/advantage.ts';
import { AdamW, DEFAULT_OPTIMIZER } from '../model/optimizer.ts';
import type { Transformer } from '../model/transformer.ts';
import { PAD } from '../tasks/index.ts';
import type { GrpoConfig } from './config.ts';
import { allEqual } from './metrics.ts';
import { grpoLearningRate } from './lr-schedule.ts';
import { offPolicyShape } from './shaping.ts';
import { weightedBatch } from './sequences.ts';
import type { TrainGroup } from './train-group.ts';
import { learnedAnswer, type LearnedAnswer } from './learned-answer.ts';
import type { LogLossRow } from './log-loss-rows.ts';

export interface UpdateResult {
  /** Policy-gradient surrogate loss of the last inner epoch (with the distillation log-loss). */
  loss: number;
  /**
   * The update was skipped, weights and optimizer untouched: its loss or its gradient norm was
   * not finite.
   */
  skipped: boolean;
  /** Global gradient norm before clipping; null when nothing was learned. */
  gradNorm: number | null;
  kl: number | null;
  clipRatio: number;
  /** Group-relative advantage of every answer, G per group in order. */
  advantages: Float32Array;
}

/**
 * The GRPO update: group-relative advantages on the device, spread over each answer's tokens as
 * its LearnedAnswer says (which tokens take loss, which are shaped or importance-weighted), and
 * AdamW. It reads the help a group got only through that record.
 */
export class PolicyUpdate {
  readonly opt: AdamW;
  private readonly rewards: Tensor<'f32'>;
  private readonly advantages: Tensor<'f32'>;

  constructor(
    private readonly be: Backend,
    private readonly model: Transformer,
    private readonly config: GrpoConfig,
    private readonly base: Transformer | null,
  ) {
    this.opt = new AdamW(model, {
      ...DEFAULT_OPTIMIZER,
      lr: config.lr,
      weightDecay: 0,
      maxGradNorm: config.maxGradNorm,
    });
    const n = config.prompts * config.groupSize;
    this.rewards = be.alloc(n, 'f32', 'rewards');
    this.advantages = be.alloc(n, 'f32', 'advantages');
  }

  /**
   * Advantages on the device ((r − mean)/(std + ε) per group, exactly 0 for all-equal groups),
   * spread over each answer's sampled tokens with token-level normalisation, then AdamW. A step
   * whose every group is all-equal has no gradient at all and leaves the policy untouched, unless
   * it has `logLoss` rows (distillation to the base, context distillation): those are learned
   * supervised at their own weights (log-loss-rows.ts).
   */
  async run(
    groups: readonly TrainGroup[],
    step: number,
    logLoss: readonly LogLossRow[],
  ): Promise<UpdateResult> {
    const { prompts, groupSize: G } = this.config;
    const rewards = new Float32Array(prompts * G);
    groups.forEach((g, i) => g.attempts.forEach((a, j) => (rewards[i * G + j] = a.verdict.reward)));
    const informative = groups.map((g) => !allEqual(g.attempts.map((a) => a.verdict.reward)));
    if (!informative.some(Boolean) && logLoss.length === 0)
      return {
        loss: 0,
        skipped: false,
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
    // How each answer is learned (learned-answer.ts), then the rows learned by their log-loss.
    const learned: { answer: LearnedAnswer; advantage: number }[] = [];
    groups.forEach((g, i) => {
      if (!informative[i]) return;
      g.attempts.forEach((a, j) =>
        learned.push({ answer: learnedAnswer(g, a), advantage: i * G + j }),
      );
    });
    const seqs = learned.map(({ answer }) => ({
      tokens: answer.tokens,
      lossStart: answer.lossStart,
      weight: 1 / totalTokens,
    }));
    const seqAdvIndex = learned.map((l) => l.advantage);
    logLoss.forEach((r) => {
      seqs.push(r);
      // Any advantage: a log-loss row's weight is its coefficient alone (logLossRow).
      seqAdvIndex.push(0);
    });
    const firstLogLoss = learned.length;
    const { batch, weights: coef, rowSequence } = weightedBatch(seqs, PAD);
    const index = Uint32Array.from(rowSequence, (b) => seqAdvIndex[b]);
    const rows = batch.B * batch.T;
    const behaviourRow = new Float32Array(rows).fill(NaN);
    const shapedRow = new Uint8Array(rows);
    learned.forEach(({ answer }, b) => {
      const row = b * batch.T + batch.start[b] - 1;
      answer.behaviour?.forEach((v, t) => (behaviourRow[row + answer.lossStart + t] = v));
      if (answer.shapedStart !== null)
        shapedRow.fill(1, row + answer.shapedStart, (b + 1) * batch.T);
    });
    const logLossRow = (n: number) => rowSequence[n] >= firstLogLoss;
    // Weights computed on the host: importance-weighted hinted samples, shaped off-policy ones,
    // log-loss rows.
    const hostWeights =
      learned.some(({ answer }) => answer.behaviour !== null || answer.shapedStart !== null) ||
      logLoss.length > 0;
    const indexT = this.be.alloc(rows, 'u32', 'row advantage index');
    const coefT = this.be.alloc(rows, 'f32', 'row token coefficient');
    this.be.write(indexT, index);
    this.be.write(coefT, coef);

    let oldLogp: Float32Array | null = null;
    let refLogp: Float32Array | null = null;
    let advantages: Float32Array | null = null;
    let loss = 0;
    let lossFinite = true;
    let clipped = 0;
    let kl: number | null = null;
    try {
      if (this.base && this.config.klCoef > 0) refLogp = (await this.base.score(batch)).logp;
      for (let epoch = 0; epoch < this.config.innerEpochs; epoch++) {
        this.model.forwardTrain(batch);
        // Every epoch reads log p: the loss, the ratios of later epochs, host-side weights.
        const logp = (await this.model.readTrainStats()).logp;
        if (epoch === 0) oldLogp = logp;
        if (epoch === 0 && !refLogp && !hostWeights) {
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
            if (logLossRow(n)) {
              w[n] = coef[n];
              continue;
            }
            const A = advantages[index[n]];
            if (shapedRow[n]) {
              // LUFFY: f(p) = p/(p + γ) of the current policy, no ratio and no clipping.
              w[n] = coef[n] * A * offPolicyShape(logp[n], this.config.offPolicyGamma).weight;
              continue;
            }
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
          if (refLogp && active > 0) kl = klSum / active;
          clipped = clipped / Math.max(1, active);
          loss = -dot(w, logp as Float32Array, rows);
          this.model.backward(w);
        }
        // A loss that is not finite (read with the log-probabilities, no extra read) updates
        // nothing; a gradient that is not finite is caught on the device (AdamW.settle).
        if (!Number.isFinite(loss)) {
          lossFinite = false;
          this.model.gradientsConsumed();
          break;
        }
        this.opt.update(grpoLearningRate(this.config, step));
      }
    } finally {
      this.be.free(indexT);
      this.be.free(coefT);
    }
    const settled = lossFinite ? await this.opt.settle() : null;
    return {
      loss,
      skipped: !lossFinite || settled!.skipped,
      gradNorm: settled?.gradNorm ?? null,
      kl,
      clipRatio: clipped,
      advantages: advantages ?? (await this.be.read(this.advantages)),
    };
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
