import type { Backend } from '../engine/backend.ts';
import { uniformAt } from '../engine/random.ts';
import { packBatch, type TokenBatch } from './batch.ts';
import type { ModelConfig } from './config.ts';
import { generate, type GenerateOptions } from './generate.ts';
import { AdamW } from './optimizer.ts';
import { parameterCount } from './param-spec.ts';
import { Transformer } from './transformer.ts';

export interface BenchOptions {
  /** Sequences per training step and per generation batch (a GRPO batch is 16 prompts × 8). */
  batch: number;
  /** Tokens per training sequence. */
  trainLength: number;
  /** Prompt lengths for the generation runs: the cost per token with the cache should not grow. */
  promptLengths: readonly number[];
  /** Tokens generated after each prompt; all but the first are timed (the first is prefill). */
  newTokens: number;
  /** Repeat a measurement until it has run this long (at least once after a warm-up). */
  minSeconds: number;
}

/**
 * The default: a quarter of a GRPO batch, so both backends finish in a few minutes on two CPU
 * cores even where WebGPU is SwiftShader (~0.1–0.3 GFLOP/s). `batch: 128` is the full GRPO size.
 */
export const DEFAULT_BENCH: BenchOptions = {
  batch: 32,
  trainLength: 32,
  promptLengths: [16, 96],
  newTokens: 8,
  minSeconds: 1,
};

/** Seconds rather than minutes on SwiftShader: the page's benchmark and smoke runs. */
export const QUICK_BENCH: BenchOptions = {
  batch: 8,
  trainLength: 32,
  promptLengths: [8, 48],
  newTokens: 4,
  minSeconds: 0.2,
};

export interface GenerationFigure {
  promptLength: number;
  cache: boolean;
  /** Time of one decoding step for the whole batch, prefill excluded. */
  msPerToken: number;
  /** Sequences × tokens per second while decoding, prefill excluded. */
  tokensPerSecond: number;
  /** Time to the first token: prompt prefill and the first draw. */
  firstTokenMs: number;
}

/**
 * A GRPO step's sampling: `prompts` distinct prompts, `answers` sequences each, the whole
 * generation (prefill and every new token) with the shared prompts prefilled once and with each
 * sequence prefilling its own.
 */
export interface GroupSamplingFigure {
  prompts: number;
  answers: number;
  promptLength: number;
  sharedMs: number;
  separateMs: number;
}

export interface BenchResult {
  backend: string;
  kind: Backend['kind'];
  parameters: number;
  trainStepMs: number;
  /**
   * A lane's snapshot after each step: the weights and AdamW's moments in one read back to the
   * host (what GrpoTrainer.saveState reads; a lane's whole GRPO step is longer than this step).
   */
  snapshotMs: number;
  trainTokensPerSecond: number;
  dispatchesPerTrainStep: number;
  generation: GenerationFigure[];
  groupSampling: GroupSamplingFigure;
}

/** Throws a RangeError naming the first option the model cannot run. */
export function validateBenchOptions(opts: BenchOptions, config: ModelConfig): void {
  const ctx = config.contextLength;
  const int = (name: string, v: number, min: number, max: number) => {
    if (!Number.isInteger(v) || v < min || v > max)
      throw new RangeError(`bench: ${name} must be an integer in [${min}, ${max}], got ${v}`);
  };
  int('batch', opts.batch, 1, 4096);
  int('trainLength', opts.trainLength, 2, ctx);
  // Two tokens at least: the first is prefill, timing starts with the second.
  int('newTokens', opts.newTokens, 2, ctx - 1);
  if (opts.promptLengths.length === 0) throw new RangeError('bench: no prompt lengths');
  for (const p of opts.promptLengths) int('a prompt length', p, 1, ctx - opts.newTokens);
  if (!(opts.minSeconds >= 0)) throw new RangeError('bench: minSeconds must be ≥ 0');
}

/** Mean time of `run`, repeated until minSeconds have passed (the caller has warmed it up). */
async function timed(minSeconds: number, run: () => Promise<void>): Promise<number> {
  let n = 0;
  const t0 = performance.now();
  do {
    await run();
    n++;
  } while (performance.now() - t0 < minSeconds * 1000);
  return (performance.now() - t0) / n;
}

export function randomSeqs(n: number, length: number, vocab: number, seed: number): Uint32Array[] {
  return Array.from({ length: n }, (_, b) =>
    Uint32Array.from({ length }, (_, t) => 2 + Math.floor(uniformAt(seed + b, t) * (vocab - 2))),
  );
}

/** Seed of the bench's model's random weights. */
export const BENCH_MODEL_SEED = 1;
/** Seed of the bench's training batch (one per sequence from here). */
const TRAIN_BATCH_SEED = 10;

/**
 * The training step's workload: `batch` sequences of random non-special tokens and a weight of
 * 1/(B·T) per token. The bench, its profile and its peers all train on exactly this.
 */
export function trainingWorkload(
  opts: Pick<BenchOptions, 'batch' | 'trainLength'>,
  vocab: number,
): { batch: TokenBatch; weights: Float32Array } {
  const batch = packBatch(randomSeqs(opts.batch, opts.trainLength, vocab, TRAIN_BATCH_SEED), 0);
  return { batch, weights: new Float32Array(batch.B * batch.T).fill(1 / (batch.B * batch.T)) };
}

/** One forward, backward and AdamW step: its mean time, its kernel launches, and a snapshot's time. */
async function benchTraining(
  model: Transformer,
  opts: BenchOptions,
): Promise<{ stepMs: number; dispatches: number; snapshotMs: number }> {
  const be = model.be;
  const opt = new AdamW(model);
  try {
    const { batch, weights } = trainingWorkload(opts, model.config.vocabSize);
    const step = async () => {
      model.forwardTrain(batch);
      model.backward(weights);
      opt.update();
      await be.flush();
    };
    // The first step compiles pipelines and allocates workspaces: counted, not timed.
    const before = be.dispatchCount;
    await step();
    const dispatches = be.dispatchCount - before;
    const stepMs = await timed(opts.minSeconds, step);
    const state = [
      ...model.params.list.map((p) => p.value),
      ...opt.momentTensors().map((m) => m.tensor),
    ];
    const snapshotMs = await timed(opts.minSeconds, async () => void (await be.readMany(state)));
    return { stepMs, dispatches, snapshotMs };
  } finally {
    opt.free();
  }
}

/** The bench's sampling: temperature 1, a fixed seed, exactly maxNewTokens for every sequence. */
function benchGenerate(
  model: Transformer,
  prompts: Uint32Array[],
  maxNewTokens: number,
  how: Pick<GenerateOptions, 'useCache' | 'sharePrompts'>,
) {
  return generate(model, prompts, {
    maxNewTokens,
    temperature: 1,
    seed: 3,
    counter: 0,
    // An end token outside the vocabulary: every run decodes exactly maxNewTokens.
    eos: model.config.vocabSize,
    pad: 0,
    ...how,
  });
}

/** Batched generation after every prompt length, with the KV cache and without. */
async function benchGeneration(
  model: Transformer,
  opts: BenchOptions,
  onStage: (stage: string) => void,
): Promise<GenerationFigure[]> {
  const vocab = model.config.vocabSize;
  const run = (prompts: Uint32Array[], cache: boolean, maxNewTokens: number) =>
    benchGenerate(model, prompts, maxNewTokens, { useCache: cache });
  // One inference workspace big enough for every run below, so none of them reallocates, and
  // one short run to compile pipelines (they depend on kernels, not shapes).
  const rows = opts.batch * (Math.max(...opts.promptLengths) + opts.newTokens);
  model.inference({ rows, cacheRows: rows, probsPerHead: 0 }, opts.batch);
  onStage(`${model.be.name}: generation warm-up`);
  await run(randomSeqs(opts.batch, opts.promptLengths[0], vocab, 20), true, 2);

  const figures: GenerationFigure[] = [];
  for (const promptLength of opts.promptLengths) {
    const prompts = randomSeqs(opts.batch, promptLength, vocab, 20);
    for (const cache of [true, false]) {
      const how = cache ? 'KV cache' : 'no cache';
      onStage(`${model.be.name}: generation, prompt ${promptLength}, ${how}`);
      let [decodeMs, steps, firstMs, runs] = [0, 0, 0, 0];
      const t0 = performance.now();
      do {
        const { timing } = await run(prompts, cache, opts.newTokens);
        decodeMs += timing.decodeMs;
        steps += timing.decodeSteps;
        firstMs += timing.firstStepMs;
        runs++;
      } while (performance.now() - t0 < opts.minSeconds * 1000);
      const msPerToken = decodeMs / steps;
      figures.push({
        promptLength,
        cache,
        msPerToken,
        tokensPerSecond: (opts.batch * 1000) / msPerToken,
        firstTokenMs: firstMs / runs,
      });
    }
  }
  return figures;
}

/** Answers per prompt in the group-sampling figure: a GRPO group's size. */
const GROUP_ANSWERS = 8;

/**
 * The batch as GRPO samples it — batch/8 distinct prompts of the longest length, 8 sequences each
 * (one prompt for the whole batch when it is not a multiple of 8) — generated whole, with shared
 * prompts prefilled once and without.
 */
async function benchGroupSampling(
  model: Transformer,
  opts: BenchOptions,
  onStage: (stage: string) => void,
): Promise<GroupSamplingFigure> {
  const answers = opts.batch % GROUP_ANSWERS === 0 ? GROUP_ANSWERS : opts.batch;
  const promptLength = Math.max(...opts.promptLengths);
  const distinct = randomSeqs(opts.batch / answers, promptLength, model.config.vocabSize, 30);
  const prompts = distinct.flatMap((p) => Array.from({ length: answers }, () => p));
  const time = async (sharePrompts: boolean) => {
    onStage(`${model.be.name}: GRPO sampling, prompts ${sharePrompts ? 'shared' : 'separate'}`);
    const run = async () =>
      void (await benchGenerate(model, prompts, opts.newTokens, { sharePrompts }));
    await run(); // the prefill workspace's first allocation, untimed
    return timed(opts.minSeconds, run);
  };
  const sharedMs = await time(true);
  const separateMs = await time(false);
  return { prompts: distinct.length, answers, promptLength, sharedMs, separateMs };
}

/**
 * What RL costs on a backend: one training step (forward, backward, AdamW) and batched
 * generation with and without the KV cache at each prompt length, on a model with the config's
 * architecture and random weights. `onStage` hears what is measured next (progress for slow
 * backends).
 */
export async function benchmark(
  be: Backend,
  config: ModelConfig,
  opts: BenchOptions = DEFAULT_BENCH,
  onStage: (stage: string) => void = () => {},
): Promise<BenchResult> {
  validateBenchOptions(opts, config);
  const model = Transformer.create(be, config, BENCH_MODEL_SEED);
  try {
    onStage(`${be.name}: training step, ${opts.batch}×${opts.trainLength} tokens`);
    const train = await benchTraining(model, opts);
    const generation = await benchGeneration(model, opts, onStage);
    const groupSampling = await benchGroupSampling(model, opts, onStage);
    return {
      backend: be.name,
      kind: be.kind,
      parameters: parameterCount(config),
      trainStepMs: train.stepMs,
      snapshotMs: train.snapshotMs,
      trainTokensPerSecond: (opts.batch * opts.trainLength) / (train.stepMs / 1000),
      dispatchesPerTrainStep: train.dispatches,
      generation,
      groupSampling,
    };
  } finally {
    model.free();
  }
}
