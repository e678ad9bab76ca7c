import { packBatch, type TokenBatch } from '../model/batch.ts';

/** A sequence to train on: tokens from `lossStart` on are predicted with `weight` each. */
export interface WeightedSequence {
  tokens: Uint32Array;
  /** Index of the first token that takes loss (after prompt, hint and any scaffold). */
  lossStart: number;
  /** Loss weight of each of those tokens: 1/N for supervised warm-up, advantage/N for RL. */
  weight: number;
}

/** Tokens of `head` then of `tail` (a prompt and its answer, a scaffold and what followed it). */
export function concatTokens(head: Uint32Array, tail: Uint32Array): Uint32Array {
  const tokens = new Uint32Array(head.length + tail.length);
  tokens.set(head);
  tokens.set(tail, head.length);
  return tokens;
}

/**
 * Pack sequences (left-padded) with their per-row loss weights. Row b·T + t predicts the token
 * after column t, so token i of a sequence padded by `off` is weighted on row off + i − 1.
 * Prompt, hint, scaffold and padding rows keep weight 0. rowSequence[n] is the sequence of row n.
 */
export function weightedBatch(
  seqs: readonly WeightedSequence[],
  pad: number,
): { batch: TokenBatch; weights: Float32Array; rowSequence: Uint32Array } {
  const batch = packBatch(
    seqs.map((s) => s.tokens),
    pad,
  );
  const weights = new Float32Array(batch.B * batch.T);
  const rowSequence = new Uint32Array(batch.B * batch.T);
  seqs.forEach((s, b) => {
    rowSequence.fill(b, b * batch.T, (b + 1) * batch.T);
    const off = batch.start[b];
    for (let i = Math.max(1, s.lossStart); i < s.tokens.length; i++)
      weights[b * batch.T + off + i - 1] = s.weight;
  });
  return { batch, weights, rowSequence };
}
