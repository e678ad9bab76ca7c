import type { Backend, Tensor } from '../backend.ts';
import { gatherScale, groupNormalize } from '../kernels/advantage.ts';
import { attentionBackward, attentionForward } from '../kernels/attention.ts';
import { scale } from '../kernels/elementwise.ts';
import { embeddingBackward, embeddingForward } from '../kernels/embedding.ts';
import { adamw, DEFAULT_ADAMW } from '../kernels/adamw.ts';
import { clipGradNorm } from '../kernels/gradnorm.ts';
import { layerNormBackward, layerNormForward } from '../kernels/layernorm.ts';
import { logSoftmaxBackward, logSoftmaxForward } from '../kernels/logsoftmax.ts';
import { ropeBackward, ropeForward, ropeTable } from '../kernels/rope.ts';
import { sampleTokens } from '../kernels/sample.ts';
import { parity, type Bound, type SelfCheck } from './check.ts';
import { gradient } from './gradient.ts';

const N1 = { normal: 1 } as const;
const TOL = { atol: 1e-5, rtol: 1e-4 };
const GRAD_TOL = { atol: 1e-3, rtol: 1e-2 };

const V = 11;
const D = 8;
const ROWS = 13;
const tokens = (n: number, vocab: number) => ({
  data: Uint32Array.from({ length: n }, (_, i) => (i * 7 + 3) % vocab),
});

// The row checks' inputs and shapes: ROWS tokens, embedded and normalised at width D.
const ROW_TOKENS = { size: ROWS, init: tokens(ROWS, V) };
const EMBEDDING = { n: ROWS, dim: D, vocab: V };
const EMBEDDING_INPUTS = { tok: ROW_TOKENS, table: { size: V * D, init: N1 } };
const NORM_INPUTS = {
  x: { size: ROWS * D, init: { normal: 2 } },
  g: { size: D, init: N1 },
  b: { size: D, init: N1 },
};
const NORM = { rows: ROWS, dim: D };

// Attention shapes: 2 sequences, 2 heads of 4, 5 columns; sequence 1 is left-padded by 2.
const A = { B: 2, T: 5, H: 2, dh: 4 } as const;
const AD = A.H * A.dh;
const STARTS = { data: new Uint32Array([0, 2]) };
const TABLE = { data: ropeTable(16, A.dh) };

/** The sample checks' tensors in the places sampleTokens takes them. */
function sampleTensors(t: Bound<Record<'logits' | 'tok' | 'lp' | 'histTok' | 'histLp', unknown>>) {
  return {
    logits: t.logits,
    tokens: t.tok,
    logprobs: t.lp,
    history: { tokens: t.histTok, logprobs: t.histLp },
  };
}

/** RoPE then attention over one training batch: qkv [B, T, 3d] → out [B, T, d]. */
function ropeAttention(be: Backend, t: Bound<{ qkv: unknown; start: unknown; table: unknown }>) {
  const n = A.B * A.T * AD;
  const q = be.alloc(n, 'f32', 'q');
  const k = be.alloc(n, 'f32', 'k');
  const v = be.alloc(n, 'f32', 'v');
  const out = be.alloc(n, 'f32', 'out');
  const probs = be.alloc(A.B * A.H * A.T * A.T, 'f32', 'probs');
  const shape = { B: A.B, Tq: A.T, H: A.H, dh: A.dh, cap: A.T, qOffset: 0 };
  ropeForward(
    be,
    { qkv: t.qkv, start: t.start, table: t.table, q, kCache: k, vCache: v },
    { ...shape, tableLen: 16 },
  );
  attentionForward(be, { q, kCache: k, vCache: v, start: t.start, out, probs }, shape);
  return { q, k, v, out, probs };
}

const ATTN_INPUTS = {
  qkv: { size: A.B * A.T * 3 * AD, init: N1 },
  start: { size: A.B, init: STARTS },
  table: { size: 16 * A.dh, init: TABLE },
  dout: { size: A.B * A.T * AD, init: N1 },
};

/** Rewards of 6 groups of 4: two of them all-equal (all fail, all succeed), which must give 0. */
const REWARDS = {
  data: new Float32Array([
    0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0.5, 0.25, 1, 0, 0, 0, 0, 1, 0.3, 0.3, 0.3, 0.7,
  ]),
};

/** Transformer kernels: parity with the CPU twin and backward passes against finite differences. */
export const MODEL_KERNEL_CHECKS: SelfCheck[] = [
  parity('group-relative advantages ((r − mean)/(std + ε), all-equal groups 0)', {
    inputs: {
      r: { size: 24, init: REWARDS },
      adv: { size: 24, init: N1 },
      centred: { size: 24, init: N1 },
    },
    outputs: ['adv', 'centred'],
    launch: (be, t) => {
      groupNormalize(be, t.adv, t.r, { groups: 6, size: 4, scaleByStd: true });
      groupNormalize(be, t.centred, t.r, { groups: 6, size: 4, scaleByStd: false });
    },
    tol: TOL,
  }),
  parity('advantage → per-row weights (gather · coefficient)', {
    inputs: {
      adv: { size: 8, init: N1 },
      index: { size: 40, init: { data: Uint32Array.from({ length: 40 }, (_, i) => i % 8) } },
      coef: { size: 40, init: N1 },
      w: { size: 40 },
    },
    outputs: ['w'],
    launch: (be, t) => gatherScale(be, t.w, t.adv, t.index, t.coef, 40),
    tol: TOL,
  }),
  parity('embedding forward', {
    inputs: {
      ...EMBEDDING_INPUTS,
      out: { size: ROWS * D },
    },
    outputs: ['out'],
    launch: (be, t) => embeddingForward(be, t.out, t.tok, t.table, EMBEDDING),
    tol: TOL,
  }),
  parity('embedding backward (scatter-add)', {
    inputs: {
      tok: ROW_TOKENS,
      dout: { size: ROWS * D, init: N1 },
      dtable: { size: V * D, init: N1 },
    },
    outputs: ['dtable'],
    launch: (be, t) =>
      embeddingBackward(be, t.dtable, t.tok, t.dout, { ...EMBEDDING, accumulate: true }),
    tol: TOL,
  }),
  gradient('embedding backward vs finite differences', {
    inputs: {
      ...EMBEDDING_INPUTS,
      dout: { size: ROWS * D, init: N1 },
    },
    wrt: ['table'],
    upstream: 'dout',
    forward: (be, t) => {
      const out = be.alloc(ROWS * D);
      embeddingForward(be, out, t.tok, t.table, EMBEDDING);
      return out;
    },
    backward: (be, t) => {
      const dtable = be.alloc(V * D);
      embeddingBackward(be, dtable, t.tok, t.dout, EMBEDDING);
      return { table: dtable };
    },
    tol: GRAD_TOL,
  }),
  parity('layernorm forward', {
    inputs: {
      ...NORM_INPUTS,
      y: { size: ROWS * D },
      mean: { size: ROWS },
      rstd: { size: ROWS },
    },
    outputs: ['y', 'mean', 'rstd'],
    launch: (be, t) =>
      layerNormForward(
        be,
        { x: t.x, gamma: t.g, beta: t.b, y: t.y, mean: t.mean, rstd: t.rstd },
        NORM,
      ),
    tol: TOL,
  }),
  gradient('layernorm backward vs finite differences', {
    inputs: {
      ...NORM_INPUTS,
      dy: { size: ROWS * D, init: N1 },
    },
    wrt: ['x', 'g', 'b'],
    upstream: 'dy',
    forward: (be, t) => {
      const y = be.alloc(ROWS * D);
      layerNormForward(
        be,
        { x: t.x, gamma: t.g, beta: t.b, y, mean: be.alloc(ROWS), rstd: be.alloc(ROWS) },
        NORM,
      );
      return y;
    },
    backward: (be, t) => {
      const [y, mean, rstd] = [be.alloc(ROWS * D), be.alloc(ROWS), be.alloc(ROWS)];
      layerNormForward(be, { x: t.x, gamma: t.g, beta: t.b, y, mean, rstd }, NORM);
      const [dx, dg, db] = [be.alloc(ROWS * D), be.alloc(D), be.alloc(D)];
      layerNormBackward(
        be,
        { x: t.x, gamma: t.g, mean, rstd, dy: t.dy, dx, dgamma: dg, dbeta: db },
        NORM,
      );
      [y, mean, rstd].forEach((u) => be.free(u));
      return { x: dx, g: dg, b: db };
    },
    tol: GRAD_TOL,
  }),
  parity('rope + attention forward (training, left-padded)', {
    inputs: { ...ATTN_INPUTS, result: { size: A.B * A.T * AD } },
    outputs: ['result'],
    launch: (be, t) => scale(be, t.result, ropeAttention(be, t).out, 1),
    tol: TOL,
  }),
  parity('attention forward (KV-cache decode, Tq = 1)', {
    inputs: {
      q: { size: A.B * AD, init: N1 },
      k: { size: A.B * 8 * AD, init: N1 },
      v: { size: A.B * 8 * AD, init: N1 },
      start: { size: A.B, init: STARTS },
      out: { size: A.B * AD },
    },
    outputs: ['out'],
    launch: (be, t) =>
      attentionForward(
        be,
        { q: t.q, kCache: t.k, vCache: t.v, start: t.start, out: t.out },
        { B: A.B, Tq: 1, H: A.H, dh: A.dh, cap: 8, qOffset: 6 },
      ),
    tol: TOL,
  }),
  gradient('rope + attention backward vs finite differences', {
    inputs: ATTN_INPUTS,
    wrt: ['qkv'],
    upstream: 'dout',
    samples: 40,
    forward: (be, t) => ropeAttention(be, t).out,
    backward: (be, t) => {
      const f = ropeAttention(be, t);
      const n = A.B * A.T * AD;
      const [dq, dk, dv] = [be.alloc(n), be.alloc(n), be.alloc(n)];
      attentionBackward(
        be,
        { ...f, dout: t.dout, dq, dk, dv },
        { B: A.B, T: A.T, H: A.H, dh: A.dh },
      );
      const dqkv = be.alloc(3 * n);
      ropeBackward(
        be,
        { dq, dk, dv, start: t.start, table: t.table, dqkv },
        { B: A.B, Tq: A.T, H: A.H, dh: A.dh, tableLen: 16 },
      );
      [dq, dk, dv, ...Object.values(f)].forEach((u: Tensor) => be.free(u));
      return { qkv: dqkv };
    },
    tol: GRAD_TOL,
  }),
  parity('log-softmax forward (log p, lse, entropy)', {
    inputs: {
      logits: { size: ROWS * V, init: { normal: 3 } },
      tgt: ROW_TOKENS,
      logp: { size: ROWS },
      lse: { size: ROWS },
      ent: { size: ROWS },
    },
    outputs: ['logp', 'lse', 'ent'],
    launch: (be, t) =>
      logSoftmaxForward(
        be,
        { logits: t.logits, targets: t.tgt, logp: t.logp, lse: t.lse, entropy: t.ent },
        { rows: ROWS, vocab: V },
      ),
    tol: TOL,
  }),
  gradient('token-weighted NLL backward vs finite differences', {
    inputs: {
      logits: { size: ROWS * V, init: { normal: 2 } },
      tgt: ROW_TOKENS,
      w: { size: ROWS, init: N1 },
    },
    wrt: ['logits'],
    upstream: 'w',
    forward: (be, t) => {
      const [logp, lse, ent, nll] = [
        be.alloc(ROWS),
        be.alloc(ROWS),
        be.alloc(ROWS),
        be.alloc(ROWS),
      ];
      logSoftmaxForward(
        be,
        { logits: t.logits, targets: t.tgt, logp, lse, entropy: ent },
        { rows: ROWS, vocab: V },
      );
      scale(be, nll, logp, -1);
      return nll;
    },
    backward: (be, t) => {
      const [logp, lse, ent] = [be.alloc(ROWS), be.alloc(ROWS), be.alloc(ROWS)];
      logSoftmaxForward(
        be,
        { logits: t.logits, targets: t.tgt, logp, lse, entropy: ent },
        { rows: ROWS, vocab: V },
      );
      const dlogits = be.alloc(ROWS * V);
      logSoftmaxBackward(
        be,
        { logits: t.logits, targets: t.tgt, lse, weights: t.w, dlogits },
        { rows: ROWS, vocab: V },
      );
      [logp, lse, ent].forEach((u) => be.free(u));
      return { logits: dlogits };
    },
    tol: GRAD_TOL,
  }),
  parity('grad-norm clip factor', {
    inputs: {
      g1: { size: 700, init: N1 },
      g2: { size: 33, init: { normal: 3 } },
      slots: { size: 2 },
      out: { size: 2 },
    },
    outputs: ['slots', 'out'],
    launch: (be, t) => clipGradNorm(be, [t.g1, t.g2], t.slots, t.out, 5),
    tol: TOL,
  }),
  // A NaN or infinite gradient: the clip factor marks the step skipped, and AdamW changes nothing
  // (a NaN anywhere in the outputs fails the comparison).
  ...[NaN, Infinity].map((bad) =>
    parity(`adamw after a ${bad} gradient: nothing changes`, {
      inputs: {
        g: {
          size: 300,
          init: { data: Float32Array.from({ length: 300 }, (_, i) => (i === 7 ? bad : 0.1)) },
        },
        slots: { size: 1 },
        clip: { size: 2 },
        param: { size: 300, init: N1 },
        m: { size: 300, init: N1 },
        v: { size: 300, init: { uniform: [0, 1] as const } },
      },
      outputs: ['param', 'm', 'v'],
      launch: (be, t) => {
        clipGradNorm(be, [t.g], t.slots, t.clip, 1);
        adamw(
          be,
          { param: t.param, grad: t.g, m: t.m, v: t.v, gradScale: t.clip },
          DEFAULT_ADAMW,
          1,
        );
      },
      tol: { atol: 0, rtol: 0 },
    }),
  ),
  parity('sample: temperature 1, top-k 5, recorded at history row 2, places moved on', {
    inputs: {
      logits: { size: 64 * V, init: { normal: 2 } },
      tok: { size: 64, init: { data: new Uint32Array(64) } },
      lp: { size: 64 },
      histTok: { size: 4 * 64, init: { data: new Uint32Array(4 * 64) } },
      histLp: { size: 4 * 64 },
      place: { size: 64, init: { data: Uint32Array.from({ length: 64 }, (_, b) => b % 5) } },
    },
    outputs: ['tok', 'lp', 'histTok', 'histLp', 'place'],
    launch: (be, t) =>
      sampleTokens(
        be,
        { ...sampleTensors(t), place: t.place },
        {
          B: 64,
          vocab: V,
          stride: V,
          offset: 0,
          temperature: 1,
          topK: 5,
          seed: 9,
          counter: 100,
          historyOffset: 2 * 64,
          // Tokens 2–10 are digits here, 0 and 1 are not: both branches of the place rule run.
          places: { firstDigit: 2, maxPlace: 3 },
        },
      ),
    tol: TOL,
  }),
  parity('sample: greedy, strided rows', {
    inputs: {
      logits: { size: 64 * V * 2, init: { normal: 2 } },
      tok: { size: 64, init: { data: new Uint32Array(64) } },
      lp: { size: 64 },
      histTok: { size: 64, init: { data: new Uint32Array(64) } },
      histLp: { size: 64 },
    },
    outputs: ['tok', 'lp', 'histTok', 'histLp'],
    launch: (be, t) =>
      sampleTokens(be, sampleTensors(t), {
        B: 64,
        vocab: V,
        stride: 2 * V,
        offset: V,
        temperature: 0,
        topK: 0,
        seed: 1,
        counter: 0,
        historyOffset: 0,
        places: null,
      }),
    tol: TOL,
  }),
];
