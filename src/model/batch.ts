/**
 * B sequences left-padded to a common length T. Left padding lines every sequence's last token
 * up in the final column, so batched generation appends at one column for all of them; start[b]
 * is the column of sequence b's first real token (attention masks everything before it).
 * Row b·T + t of `targets` is the token after column t: weights on that row train that
 * prediction.
 */
export interface TokenBatch {
  B: number;
  T: number;
  tokens: Uint32Array;
  targets: Uint32Array;
  start: Uint32Array;
}

export function packBatch(
  seqs: readonly Uint32Array[],
  pad: number,
  T = Math.max(1, ...seqs.map((s) => s.length)),
): TokenBatch {
  const B = seqs.length;
  if (B === 0) throw new Error('packBatch: no sequences');
  const tokens = new Uint32Array(B * T).fill(pad);
  const targets = new Uint32Array(B * T).fill(pad);
  const start = new Uint32Array(B);
  seqs.forEach((s, b) => {
    if (s.length > T)
      throw new Error(`packBatch: sequence ${b} has ${s.length} tokens, more than ${T}`);
    const off = T - s.length;
    start[b] = off;
    tokens.set(s, b * T + off);
    for (let t = off; t < T - 1; t++) targets[b * T + t] = tokens[b * T + t + 1];
  });
  return { B, T, tokens, targets, start };
}
