import { packBatch } from '../src/model/batch.ts';
import type { Transformer } from '../src/model/transformer.ts';
import { BOS, PAD, VOCAB, encode } from '../src/tasks/tokenizer.ts';

export interface ForwardProbe {
  /** The token ids that ran, begin token included. */
  tokens: number[];
  /** Mean next-token negative log-likelihood over the tokens.length − 1 predictions. */
  loss: number;
  /** Logits at the last position: the model's prediction of the token after the text. */
  logits: Float32Array;
  /** L2 norm of each parameter's gradient of `loss`, in checkpoint order. */
  gradNorms: { name: string; norm: number }[];
  /** L2 norm of all gradients together. */
  gradNorm: number;
}

/**
 * The text's tokens as training sees them: training sequences start with the begin token `^`,
 * so it is prepended unless the text already starts with it (`||274+983=168.` and
 * `^||274+983=168.` probe the same sequence). Throws VocabularyError on a character outside the
 * vocabulary.
 */
export function probeTokens(text: string): Uint32Array {
  const body = encode(text.startsWith(VOCAB[BOS]) ? text.slice(1) : text);
  const tokens = new Uint32Array(body.length + 1);
  tokens[0] = BOS;
  tokens.set(body, 1);
  return tokens;
}

function l2(data: Float32Array): number {
  let s = 0;
  for (let i = 0; i < data.length; i++) s += data[i] * data[i];
  return Math.sqrt(s);
}

/**
 * Loss, last-position logits and per-tensor gradient norms of one sequence: a deterministic
 * probe of a checkpoint that other tools (e.g. a PyTorch port) can cross-check. Overwrites the
 * model's gradients and leaves them marked consumed, so the next backward starts afresh.
 */
export async function forwardProbe(model: Transformer, tokens: Uint32Array): Promise<ForwardProbe> {
  const { be, config } = model;
  const T = tokens.length;
  if (T < 2) throw new RangeError('the probe needs at least one token after the begin token');
  if (T > config.contextLength) {
    throw new RangeError(
      `${T} tokens exceed the model's context of ${config.contextLength} (begin token included)`,
    );
  }
  const bad = tokens.findIndex((id) => id >= config.vocabSize);
  if (bad >= 0) {
    throw new RangeError(
      `token ${tokens[bad]} at position ${bad} is outside the model's vocabulary of ${config.vocabSize}`,
    );
  }
  const batch = packBatch([tokens], PAD);
  // Row t predicts token t + 1; the last row has no target and no weight.
  const weights = new Float32Array(T).fill(1 / (T - 1), 0, T - 1);
  model.gradientsConsumed();
  model.forwardTrain(batch);
  const { logp } = await model.readTrainStats();
  model.backward(weights);
  let nll = 0;
  for (let t = 0; t < T - 1; t++) nll -= logp[t];
  const gradNorms = [];
  for (const p of model.params.list) {
    gradNorms.push({ name: p.spec.name, norm: l2(await be.read(p.grad)) });
  }
  model.gradientsConsumed();

  const ws = model.inference({ rows: T, cacheRows: T, probsPerHead: 0 }, 1);
  model.writeTokens(ws, batch);
  model.runInference(ws, { B: 1, Tq: T, cap: T, qOffset: 0 });
  const V = config.vocabSize;
  const logits = (await be.read(ws.logits)).slice((T - 1) * V, T * V) as Float32Array;
  return {
    tokens: Array.from(tokens),
    loss: nll / (T - 1),
    logits,
    gradNorms,
    gradNorm: Math.hypot(...gradNorms.map((g) => g.norm)),
  };
}
