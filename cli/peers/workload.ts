// The bench's training step as data, so that other frameworks can run exactly it: the model's
// weights, the batch, the per-token weights and the optimizer, plus the losses our CPU twin gets
// on them (what every peer has to reproduce).
import { CpuBackend } from '../../src/engine/cpu/cpu-backend.ts';
import type { TokenBatch } from '../../src/model/batch.ts';
import {
  BENCH_MODEL_SEED,
  trainingWorkload,
  type BenchOptions,
} from '../../src/model/benchmark.ts';
import type { ModelConfig } from '../../src/model/config.ts';
import { AdamW, DEFAULT_OPTIMIZER, type OptimizerConfig } from '../../src/model/optimizer.ts';
import { ParameterStore } from '../../src/model/parameters.ts';
import type { NamedTensor } from '../../src/model/safetensors.ts';
import { Transformer } from '../../src/model/transformer.ts';

export interface PeerWorkload {
  config: ModelConfig;
  /** Every parameter in checkpoint order and layout (Linear weights [out, in]). */
  tensors: NamedTensor[];
  /** B sequences of T tokens, unpadded (every start is 0). */
  batch: TokenBatch;
  /** Loss weight per row: L = −Σ w·log p(target). */
  weights: Float32Array;
  optimizer: OptimizerConfig;
  /** Time steps until this long has passed, after one untimed warm-up step. */
  minSeconds: number;
  /**
   * The bench's decoding run with the KV cache at its first prompt length (B sequences), for
   * peers that decode; absent when the options name none.
   */
  decode?: { B: number; promptLength: number; newTokens: number };
  /** Our CPU twin's loss on the initial weights: a peer's first step must give it. */
  loss: number;
  /** … and after one AdamW step: a peer's second step must give it (gradients and update). */
  lossAfterStep: number;
}

/** L = −Σ w·logp, summed in float64. */
export function weightedLoss(logp: Float32Array, weights: Float32Array): number {
  let s = 0;
  for (let i = 0; i < weights.length; i++) s -= weights[i] * logp[i];
  return s;
}

/**
 * What `benchmark(be, config, opts)` trains on, and our CPU twin's loss before and after one
 * step of it (forward, backward, AdamW as benchTraining runs them).
 */
export async function peerWorkload(
  config: ModelConfig,
  opts: Pick<BenchOptions, 'batch' | 'trainLength' | 'minSeconds'> &
    Partial<Pick<BenchOptions, 'promptLengths' | 'newTokens'>>,
  /** Other weights than the bench's (tests: weights where attention is not near-uniform). */
  weights?: readonly NamedTensor[],
): Promise<PeerWorkload> {
  const be = new CpuBackend();
  const model = weights
    ? new Transformer(be, ParameterStore.fromTensors(be, config, weights))
    : Transformer.create(be, config, BENCH_MODEL_SEED);
  const opt = new AdamW(model, DEFAULT_OPTIMIZER);
  try {
    const { batch, weights: rowWeights } = trainingWorkload(opts, config.vocabSize);
    const tensors = await model.params.toTensors();
    model.forwardTrain(batch);
    const loss = weightedLoss((await model.readTrainStats()).logp, rowWeights);
    model.backward(rowWeights);
    opt.update();
    model.forwardTrain(batch);
    const lossAfterStep = weightedLoss((await model.readTrainStats()).logp, rowWeights);
    return {
      config,
      tensors,
      batch,
      weights: rowWeights,
      optimizer: opt.config,
      minSeconds: opts.minSeconds,
      ...(opts.promptLengths?.length && opts.newTokens
        ? {
            decode: {
              B: opts.batch,
              promptLength: opts.promptLengths[0],
              newTokens: opts.newTokens,
            },
          }
        : {}),
      loss,
      lossAfterStep,
    };
  } finally {
    opt.free();
    model.free();
  }
}

/** Relative difference beyond which a peer's loss is not ours (float32 sums differ ~1e-7). */
export const LOSS_RTOL = 1e-5;

/** null when the peer's losses are ours to LOSS_RTOL, else what differs, in words. */
export function lossMismatch(
  w: Pick<PeerWorkload, 'loss' | 'lossAfterStep'>,
  loss: number,
  lossAfterStep: number,
): string | null {
  const check = (what: string, peer: number, ours: number) => {
    const rel = Math.abs(peer - ours) / Math.abs(ours);
    return rel <= LOSS_RTOL
      ? null
      : `${what} ${peer.toPrecision(7)} is not ours (${ours.toPrecision(7)}): ` +
          `${Number.isNaN(rel) ? 'NaN' : rel.toExponential(1)} relative, more than ${LOSS_RTOL}`;
  };
  return (
    check('loss', loss, w.loss) ?? check('loss after one step', lossAfterStep, w.lossAfterStep)
  );
}
