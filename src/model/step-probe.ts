// A GRPO step in miniature, for timing a backend before a run chooses one (the page's lanes): the
// step's sampling (one batched generation with the KV cache, prompts shared) and one training step
// on what it drew — the two costs whose balance decides whether a small model runs faster on a GPU
// (fewer FLOP-seconds) or on the CPU (no dispatch latency).
import { randomSeqs, trainingWorkload } from './benchmark.ts';
import { generate } from './generate.ts';
import { AdamW } from './optimizer.ts';
import type { Transformer } from './transformer.ts';

export interface StepProbeOptions {
  /** Distinct prompts, and answers sampled for each (a GRPO batch is 16 × 8). */
  prompts: number;
  answers: number;
  promptLength: number;
  /** Tokens drawn after each prompt: about an answer's length. */
  newTokens: number;
}

/** The page's step: 16 prompts × 8 answers, prompts and answers about as long as arithmetic's. */
export const LANE_STEP_PROBE: StepProbeOptions = {
  prompts: 16,
  answers: 8,
  promptLength: 16,
  newTokens: 6,
};

/**
 * A runnable probe of `model` (on its backend): each run samples and trains once. The training
 * step updates a copy of nothing: the weights change, so probe a model that is thrown away or
 * loaded afresh afterwards.
 */
export function stepProbe(
  model: Transformer,
  opts: StepProbeOptions = LANE_STEP_PROBE,
): { run(): Promise<void>; free(): void } {
  const vocab = model.config.vocabSize;
  const prompts = randomSeqs(opts.prompts, opts.promptLength, vocab, 30).flatMap((p) =>
    Array.from({ length: opts.answers }, () => p),
  );
  const rows = opts.prompts * opts.answers;
  const train = trainingWorkload(
    { batch: rows, trainLength: opts.promptLength + opts.newTokens },
    vocab,
  );
  const opt = new AdamW(model);
  return {
    async run() {
      await generate(model, prompts, {
        maxNewTokens: opts.newTokens,
        temperature: 1,
        seed: 3,
        counter: 0,
        // An end token outside the vocabulary: every sequence draws all of its tokens.
        eos: vocab,
        pad: 0,
      });
      model.forwardTrain(train.batch);
      model.backward(train.weights);
      opt.update();
      await model.be.flush();
    },
    free: () => opt.free(),
  };
}
