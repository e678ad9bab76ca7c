import shader from '../../../shaders/attention.wgsl?raw';
import type { Backend, NumArray, Tensor } from '../backend.ts';
import { axpy, axpy4, dot, dots4 } from '../cpu/dots.ts';
import { exp } from '../cpu/exp.ts';
import {
  attentionBackwardKVFast,
  attentionBackwardQFast,
  attentionForwardFast,
} from '../cpu/fast/attention.ts';
import { BackendError } from '../errors.ts';
import { grid, requireElements, type Kernel, type UniformField } from '../kernel.ts';
import { MAX_HEAD_DIM } from '../limits.ts';
import { placeholder } from './placeholder.ts';

/** B sequences of Tq query rows, H heads of dh, over K/V caches of cap columns. */
export interface AttentionShape {
  B: number;
  /** Query rows per sequence in this call. */
  Tq: number;
  H: number;
  dh: number;
  /** Columns of the K/V cache per sequence (T in training). */
  cap: number;
  /** Cache column of the first query row (0 in training and prefill). */
  qOffset: number;
}

interface ForwardParams extends AttentionShape {
  storeProbs: boolean;
}

/** The shape as the first uniforms of the kernels over the caches, attention's and RoPE's. */
export const shapeUniforms = (p: AttentionShape): UniformField[] => [
  ['u32', p.B],
  ['u32', p.Tq],
  ['u32', p.H],
  ['u32', p.dh],
  ['u32', p.cap],
  ['u32', p.qOffset],
];

const uniforms = (p: AttentionShape): UniformField[] => [
  ...shapeUniforms(p),
  ['f32', 1 / Math.sqrt(p.dh)],
  ['u32', 0],
];

const rows = (p: AttentionShape) => grid((p.B * p.H * p.Tq) / 64);

export const attentionForwardKernel: Kernel<ForwardParams> = {
  name: 'attention.forward',
  shader,
  entry: 'attention_forward',
  access: ['read', 'read', 'read', 'read', 'write', 'write'],
  uniforms,
  constants: (p) => ({ STORE_PROBS: Number(p.storeProbs) }),
  workgroups: rows,
  cpu: (p, [q, kc, vc, start, out, probs]) => {
    // The shape in locals, scratch allocated once, keys four at a time (dots.ts): V8 keeps the
    // loops tight, and every sum runs in the same order as key by key.
    const { B, H, Tq, dh, cap, qOffset, storeProbs } = p;
    const scale = Math.fround(1 / Math.sqrt(dh));
    const d = H * dh;
    const scores = new Float64Array(cap);
    const acc = new Float64Array(dh);
    const s4 = new Float64Array(4);
    for (let b = 0; b < B; b++)
      for (let h = 0; h < H; h++)
        for (let t = 0; t < Tq; t++) {
          const r = (b * H + h) * Tq + t;
          const kv = (b * H + h) * cap;
          const first = start[b];
          const last = qOffset + t;
          const qo = r * dh;
          let j = first;
          for (; j + 3 <= last; j += 4) {
            dots4(s4, q, qo, kc, (kv + j) * dh, dh, dh);
            for (let u = 0; u < 4; u++) scores[j + u] = s4[u] * scale;
          }
          for (; j <= last; j++) scores[j] = dot(q, qo, kc, (kv + j) * dh, dh) * scale;
          let m = -Infinity;
          for (j = first; j <= last; j++) if (scores[j] > m) m = scores[j];
          let l = 0;
          for (j = first; j <= last; j++) {
            const e = exp(scores[j] - m);
            scores[j] = e;
            l += e;
          }
          const inv = l > 0 ? 1 / l : 0;
          acc.fill(0);
          for (j = first; j + 3 <= last; j += 4) {
            const w0 = scores[j] * inv;
            const w1 = scores[j + 1] * inv;
            const w2 = scores[j + 2] * inv;
            const w3 = scores[j + 3] * inv;
            axpy4(acc, w0, w1, w2, w3, vc, (kv + j) * dh, dh, dh);
          }
          for (; j <= last; j++) axpy(acc, scores[j] * inv, vc, (kv + j) * dh, dh);
          const o = (b * Tq + t) * d + h * dh;
          for (let c = 0; c < dh; c++) out[o + c] = acc[c];
          if (storeProbs) {
            const po = r * cap;
            for (j = 0; j < cap; j++) probs[po + j] = j >= first && j <= last ? scores[j] * inv : 0;
          }
        }
  },
  cpuFast: attentionForwardFast,
};

type BackwardParams = Omit<AttentionShape, 'cap' | 'qOffset'> & { cap: number; qOffset: 0 };

/*
 * Backward twins: D_i = dout_i·out_i and dP_ij = dout_i·v_j, then dS_ij = P_ij (dP_ij − D_i);
 * terms with P_ij = 0 are skipped, as on the GPU. q, k, v, dq, dk, dv rows are [B, H, T, dh];
 * out and dout rows [B, T, H·dh]. Terms go four at a time where all four P_ij are non-zero.
 */

/** Whether a[at], a[at + stride], … a[at + 3·stride] are all non-zero. */
function nonZero4(a: NumArray, at: number, stride: number): boolean {
  return (
    a[at] !== 0 && a[at + stride] !== 0 && a[at + 2 * stride] !== 0 && a[at + 3 * stride] !== 0
  );
}

export const attentionBackwardQKernel: Kernel<BackwardParams> = {
  name: 'attention.backward_q',
  shader,
  entry: 'attention_backward_q',
  access: ['read', 'read', 'read', 'read', 'read', 'write'],
  uniforms,
  workgroups: rows,
  cpu: (p, [k, v, probs, out, dout, dq]) => {
    const { B, H, Tq: T, dh } = p;
    const scale = Math.fround(1 / Math.sqrt(dh));
    const acc = new Float64Array(dh);
    const s4 = new Float64Array(4);
    for (let b = 0; b < B; b++)
      for (let h = 0; h < H; h++)
        for (let i = 0; i < T; i++) {
          // dq_i = scale·Σ_j dS_ij k_j over keys j ≤ i; k_j and v_j start at (key0 + j)·dh.
          const r = (b * H + h) * T + i;
          const key0 = (b * H + h) * T;
          const o = (b * T + i) * H * dh + h * dh;
          const di = dot(dout, o, out, o, dh);
          const pr = r * T;
          acc.fill(0);
          for (let j = 0; j <= i;) {
            const jo = (key0 + j) * dh;
            if (j + 3 <= i && nonZero4(probs, pr + j, 1)) {
              dots4(s4, dout, o, v, jo, dh, dh);
              const d0 = probs[pr + j] * (s4[0] - di);
              const d1 = probs[pr + j + 1] * (s4[1] - di);
              const d2 = probs[pr + j + 2] * (s4[2] - di);
              const d3 = probs[pr + j + 3] * (s4[3] - di);
              axpy4(acc, d0, d1, d2, d3, k, jo, dh, dh);
              j += 4;
            } else {
              const pij = probs[pr + j];
              if (pij !== 0) axpy(acc, pij * (dot(dout, o, v, jo, dh) - di), k, jo, dh);
              j++;
            }
          }
          for (let c = 0; c < dh; c++) dq[r * dh + c] = acc[c] * scale;
        }
  },
  cpuFast: attentionBackwardQFast,
};

export const attentionBackwardKVKernel: Kernel<BackwardParams> = {
  name: 'attention.backward_kv',
  shader,
  entry: 'attention_backward_kv',
  access: ['read', 'read', 'read', 'read', 'read', 'write', 'write'],
  uniforms,
  workgroups: rows,
  cpu: (p, [q, v, probs, out, dout, dk, dv]) => {
    const { B, H, Tq: T, dh } = p;
    const scale = Math.fround(1 / Math.sqrt(dh));
    const d = H * dh;
    const Ds = new Float64Array(T);
    const accK = new Float64Array(dh);
    const accV = new Float64Array(dh);
    const s4 = new Float64Array(4);
    for (let b = 0; b < B; b++)
      for (let h = 0; h < H; h++) {
        // Query row i: q_i at (row0 + i)·dh, out_i and dout_i at out0 + i·d.
        const row0 = (b * H + h) * T;
        const out0 = b * T * d + h * dh;
        for (let i = 0; i < T; i++) Ds[i] = dot(dout, out0 + i * d, out, out0 + i * d, dh);
        for (let j = 0; j < T; j++) {
          // dk_j = scale·Σ_i dS_ij q_i and dv_j = Σ_i P_ij dout_i over queries i ≥ j.
          const r = row0 + j;
          const vo = r * dh;
          accK.fill(0);
          accV.fill(0);
          for (let i = j; i < T;) {
            const pr = (row0 + i) * T + j; // P_ij; P_(i+1)j is T further
            const o = out0 + i * d;
            const qo = (row0 + i) * dh;
            if (i + 4 <= T && nonZero4(probs, pr, T)) {
              const p0 = probs[pr];
              const p1 = probs[pr + T];
              const p2 = probs[pr + 2 * T];
              const p3 = probs[pr + 3 * T];
              dots4(s4, v, vo, dout, o, d, dh);
              const d0 = p0 * (s4[0] - Ds[i]);
              const d1 = p1 * (s4[1] - Ds[i + 1]);
              const d2 = p2 * (s4[2] - Ds[i + 2]);
              const d3 = p3 * (s4[3] - Ds[i + 3]);
              axpy4(accK, d0, d1, d2, d3, q, qo, dh, dh);
              axpy4(accV, p0, p1, p2, p3, dout, o, d, dh);
              i += 4;
            } else {
              const pij = probs[pr];
              if (pij !== 0) {
                axpy(accK, pij * (dot(dout, o, v, vo, dh) - Ds[i]), q, qo, dh);
                axpy(accV, pij, dout, o, dh);
              }
              i++;
            }
          }
          for (let c = 0; c < dh; c++) {
            dk[r * dh + c] = accK[c] * scale;
            dv[r * dh + c] = accV[c];
          }
        }
      }
  },
  cpuFast: attentionBackwardKVFast,
};

function validate(s: AttentionShape): void {
  if (s.dh > MAX_HEAD_DIM)
    throw new BackendError(`attention: head dimension ${s.dh} exceeds ${MAX_HEAD_DIM}`);
  if (s.qOffset + s.Tq > s.cap) {
    throw new BackendError(
      `attention: query columns ${s.qOffset}..${s.qOffset + s.Tq} exceed the cache's ${s.cap}`,
    );
  }
}

/**
 * out = softmax(q·kᵀ/√dh, causal, padding-masked)·v. With `probs`, also stores the attention
 * probabilities [B, H, Tq, cap] for the backward (training).
 */
export function attentionForward(
  be: Backend,
  t: { q: Tensor; kCache: Tensor; vCache: Tensor; start: Tensor; out: Tensor; probs?: Tensor },
  s: AttentionShape,
): void {
  validate(s);
  const d = s.H * s.dh;
  requireElements('attention', s.B * s.Tq * d, t.q);
  requireElements('attention', s.B * s.cap * d, t.kCache);
  requireElements('attention', s.B * s.cap * d, t.vCache);
  requireElements('attention', s.B, t.start);
  requireElements('attention', s.B * s.Tq * d, t.out);
  if (t.probs) requireElements('attention', s.B * s.H * s.Tq * s.cap, t.probs);
  be.run(attentionForwardKernel, { ...s, storeProbs: t.probs !== undefined }, [
    t.q,
    t.kCache,
    t.vCache,
    t.start,
    t.out,
    t.probs ?? placeholder(be),
  ]);
}

/** dq, dk, dv [B, H, T, dh] from dout [B, T, H·dh], training layout (cap = Tq = T). */
export function attentionBackward(
  be: Backend,
  t: {
    q: Tensor;
    k: Tensor;
    v: Tensor;
    probs: Tensor;
    out: Tensor;
    dout: Tensor;
    dq: Tensor;
    dk: Tensor;
    dv: Tensor;
  },
  s: { B: number; T: number; H: number; dh: number },
): void {
  const p: BackwardParams = { B: s.B, Tq: s.T, H: s.H, dh: s.dh, cap: s.T, qOffset: 0 };
  validate(p);
  const n = s.B * s.T * s.H * s.dh;
  requireElements('attention', n, t.q, t.k, t.v, t.out, t.dout, t.dq, t.dk, t.dv);
  requireElements('attention', s.B * s.H * s.T * s.T, t.probs);
  be.run(attentionBackwardQKernel, p, [t.k, t.v, t.probs, t.out, t.dout, t.dq]);
  be.run(attentionBackwardKVKernel, p, [t.q, t.v, t.probs, t.out, t.dout, t.dk, t.dv]);
}
