import type { Backend } from '../engine/backend.ts';
import { uniformAt } from '../engine/random.ts';
import { packBatch } from './batch.ts';
import type { ModelConfig } from './config.ts';
import { generate } from './generate.ts';
import { AdamW } from './optimizer.ts';
import { parameterCount } from './param-spec.ts';
import { Transformer } from './transformer.ts';

export interface BenchOptions {
  /** Sequences per training step and per generation batch (a GRPO batch: 16 prompts × 8). */
  batch: number;
  /** Tokens per training sequence. */
  trainLength: number;
  /** Prompt lengths for the generation runs: the cost per token with the cache should not grow. */
  promptLengths: readonly number[];
  newTokens: number;
  /** Keep repeating a measurement until it has run this long (at least twice). */
  minSeconds: number;
}

export const DEFAULT_BENCH: BenchOptions = {
  batch: 128,
  trainLength: 32,
  promptLengths: [16, 96],
  newTokens: 16,
  minSeconds: 1,
};

export interface GenerationFigure {
  promptLength: number;
  cache: boolean;
  /** Sequences × tokens per second while decoding, prefill excluded. */
  tokensPerSecond: number;
  /** Time of one decoding step for the whole batch, prefill excluded. */
  msPerToken: number;
}

export interface BenchResult {
  backend: string;
  parameters: number;
  trainStepMs: number;
  trainTokensPerSecond: number;
  dispatchesPerTrainStep: number;
  generation: GenerationFigure[];
}

async function timed(minSeconds: number, run: () => Promise<void>): Promise<number> {
  await run(); // warm-up: pipelines, workspaces
  let n = 0;
  const t0 = performance.now();
  do {
    await run();
    n++;
  } while (n < 2 || performance.now() - t0 < minSeconds * 1000);
  return (performance.now() - t0) / n;
}

function randomSeqs(n: number, length: number, vocab: number, seed: number): Uint32Array[] {
  return Array.from({ length: n }, (_, b) =>
    Uint32Array.from({ length }, (_, t) => 2 + Math.floor(uniformAt(seed + b, t) * (vocab - 2))),
  );
}

/**
 * What RL costs on a backend: one training step (forward, backward, AdamW) on a GRPO-sized
 * batch, and batched generation with and without the KV cache at two prompt lengths.
 */
export async function benchmark(
  be: Backend,
  config: ModelConfig,
  opts: BenchOptions = DEFAULT_BENCH,
): Promise<BenchResult> {
  const model = Transformer.create(be, config, 1);
  const opt = new AdamW(model);
  const batch = packBatch(randomSeqs(opts.batch, opts.trainLength, config.vocabSize, 10), 0);
  const weights = new Float32Array(batch.B * batch.T).fill(1 / (batch.B * batch.T));
  const step = async () => {
    model.forwardTrain(batch);
    model.backward(weights);
    opt.update();
    await be.flush();
  };
  const before = be.dispatchCount;
  await step();
  const dispatches = be.dispatchCount - before;
  const trainStepMs = await timed(opts.minSeconds, step);

  const generation: GenerationFigure[] = [];
  for (const promptLength of opts.promptLengths) {
    const prompts = randomSeqs(opts.batch, promptLength, config.vocabSize, 20);
    for (const cache of [true, false]) {
      // An end token outside the vocabulary: every run decodes exactly newTokens.
      const once = () =>
        generate(model, prompts, {
          maxNewTokens: opts.newTokens,
          temperature: 1,
          seed: 3,
          counter: 0,
          eos: config.vocabSize,
          pad: 0,
          useCache: cache,
        });
      await once();
      let decodeMs = 0;
      let steps = 0;
      const t0 = performance.now();
      while (steps < 2 * (opts.newTokens - 1) || performance.now() - t0 < opts.minSeconds * 1000) {
        const g = await once();
        decodeMs += g.timing.decodeMs;
        steps += g.timing.decodeSteps;
      }
      const msPerToken = decodeMs / steps;
      generation.push({
        promptLength,
        cache,
        msPerToken,
        tokensPerSecond: (opts.batch * 1000) / msPerToken,
      });
    }
  }
  opt.free();
  model.free();
  return {
    backend: be.name,
    parameters: parameterCount(config),
    trainStepMs,
    trainTokensPerSecond: (batch.B * batch.T) / (trainStepMs / 1000),
    dispatchesPerTrainStep: dispatches,
    generation,
  };
}
