import shader from '../../../shaders/attention.wgsl?raw';
import type { Backend, NumArray, Tensor } from '../backend.ts';
import { BackendError } from '../errors.ts';
import { grid, type Kernel, type UniformField } from '../kernel.ts';
import { placeholder } from './placeholder.ts';

/** Largest head dimension the WGSL kernels hold in registers. */
export const MAX_HEAD_DIM = 64;

export interface AttentionShape {
  B: number;
  Tq: number;
  H: number;
  dh: number;
  cap: number;
  qOffset: number;
}

interface ForwardParams extends AttentionShape {
  storeProbs: boolean;
}

const uniforms = (p: AttentionShape): UniformField[] => [
  ['u32', p.B],
  ['u32', p.Tq],
  ['u32', p.H],
  ['u32', p.dh],
  ['u32', p.cap],
  ['u32', p.qOffset],
  ['f32', 1 / Math.sqrt(p.dh)],
  ['u32', 0],
];

const rows = (p: AttentionShape) => grid((p.B * p.H * p.Tq) / 64);

function dot(a: NumArray, ao: number, b: NumArray, bo: number, n: number): number {
  let s = 0;
  for (let c = 0; c < n; c++) s += a[ao + c] * b[bo + c];
  return s;
}

export const attentionForwardKernel: Kernel<ForwardParams> = {
  name: 'attention.forward',
  shader,
  entry: 'attention_forward',
  access: ['read', 'read', 'read', 'read', 'write', 'write'],
  uniforms,
  constants: (p) => ({ STORE_PROBS: Number(p.storeProbs) }),
  workgroups: rows,
  cpu: (p, [q, kc, vc, start, out, probs]) => {
    const scale = Math.fround(1 / Math.sqrt(p.dh));
    const d = p.H * p.dh;
    const scores = new Float64Array(p.cap);
    for (let b = 0; b < p.B; b++)
      for (let h = 0; h < p.H; h++)
        for (let t = 0; t < p.Tq; t++) {
          const r = (b * p.H + h) * p.Tq + t;
          const kv = (b * p.H + h) * p.cap;
          const first = start[b];
          const last = p.qOffset + t;
          let m = -Infinity;
          const qo = r * p.dh;
          for (let j = first; j <= last; j++) {
            const ko = (kv + j) * p.dh;
            let s = 0;
            for (let c = 0; c < p.dh; c++) s += q[qo + c] * kc[ko + c];
            scores[j] = s * scale;
            if (scores[j] > m) m = scores[j];
          }
          let l = 0;
          for (let j = first; j <= last; j++) {
            scores[j] = Math.exp(scores[j] - m);
            l += scores[j];
          }
          const inv = l > 0 ? 1 / l : 0;
          const o = (b * p.Tq + t) * d + h * p.dh;
          for (let c = 0; c < p.dh; c++) out[o + c] = 0;
          for (let j = first; j <= last; j++) {
            const w = scores[j] * inv;
            const vo = (kv + j) * p.dh;
            for (let c = 0; c < p.dh; c++) out[o + c] += w * vc[vo + c];
          }
          if (p.storeProbs) {
            for (let j = 0; j < p.cap; j++) {
              probs[r * p.cap + j] = j >= first && j <= last ? scores[j] * inv : 0;
            }
          }
        }
  },
};

type BackwardParams = Omit<AttentionShape, 'cap' | 'qOffset'> & { cap: number; qOffset: 0 };

/** D_i = dout_i·out_i and dP_ij = dout_i·v_j, shared by both backward twins. */
function backwardTerms(p: BackwardParams, v: NumArray, out: NumArray, dout: NumArray) {
  const d = p.H * p.dh;
  const rowOf = (b: number, h: number, i: number) => (b * p.Tq + i) * d + h * p.dh;
  return {
    D: (b: number, h: number, i: number) => dot(dout, rowOf(b, h, i), out, rowOf(b, h, i), p.dh),
    dP: (b: number, h: number, i: number, j: number) =>
      dot(dout, rowOf(b, h, i), v, ((b * p.H + h) * p.Tq + j) * p.dh, p.dh),
    rowOf,
  };
}

export const attentionBackwardQKernel: Kernel<BackwardParams> = {
  name: 'attention.backward_q',
  shader,
  entry: 'attention_backward_q',
  access: ['read', 'read', 'read', 'read', 'read', 'write'],
  uniforms,
  workgroups: rows,
  cpu: (p, [k, v, probs, out, dout, dq]) => {
    const scale = Math.fround(1 / Math.sqrt(p.dh));
    const { D, dP } = backwardTerms(p, v, out, dout);
    for (let b = 0; b < p.B; b++)
      for (let h = 0; h < p.H; h++)
        for (let i = 0; i < p.Tq; i++) {
          const r = (b * p.H + h) * p.Tq + i;
          const di = D(b, h, i);
          const acc = new Float64Array(p.dh);
          for (let j = 0; j <= i; j++) {
            const pij = probs[r * p.Tq + j];
            if (pij === 0) continue;
            const ds = pij * (dP(b, h, i, j) - di);
            const ko = ((b * p.H + h) * p.Tq + j) * p.dh;
            for (let c = 0; c < p.dh; c++) acc[c] += ds * k[ko + c];
          }
          for (let c = 0; c < p.dh; c++) dq[r * p.dh + c] = acc[c] * scale;
        }
  },
};

export const attentionBackwardKVKernel: Kernel<BackwardParams> = {
  name: 'attention.backward_kv',
  shader,
  entry: 'attention_backward_kv',
  access: ['read', 'read', 'read', 'read', 'read', 'write', 'write'],
  uniforms,
  workgroups: rows,
  cpu: (p, [q, v, probs, out, dout, dk, dv]) => {
    const scale = Math.fround(1 / Math.sqrt(p.dh));
    const { D, dP, rowOf } = backwardTerms(p, v, out, dout);
    for (let b = 0; b < p.B; b++)
      for (let h = 0; h < p.H; h++) {
        const Ds = new Float64Array(p.Tq);
        for (let i = 0; i < p.Tq; i++) Ds[i] = D(b, h, i);
        for (let j = 0; j < p.Tq; j++) {
          const r = (b * p.H + h) * p.Tq + j;
          const accK = new Float64Array(p.dh);
          const accV = new Float64Array(p.dh);
          for (let i = j; i < p.Tq; i++) {
            const qrow = (b * p.H + h) * p.Tq + i;
            const pij = probs[qrow * p.Tq + j];
            if (pij === 0) continue;
            const ds = pij * (dP(b, h, i, j) - Ds[i]);
            const o = rowOf(b, h, i);
            for (let c = 0; c < p.dh; c++) {
              accK[c] += ds * q[qrow * p.dh + c];
              accV[c] += pij * dout[o + c];
            }
          }
          for (let c = 0; c < p.dh; c++) {
            dk[r * p.dh + c] = accK[c] * scale;
            dv[r * p.dh + c] = accV[c];
          }
        }
      }
  },
};

function need(t: Tensor, n: number): void {
  if (t.size < n)
    throw new BackendError(`attention: "${t.label}" has ${t.size} elements, needs ${n}`);
}

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
  need(t.q, s.B * s.Tq * d);
  need(t.kCache, s.B * s.cap * d);
  need(t.vCache, s.B * s.cap * d);
  need(t.start, s.B);
  need(t.out, s.B * s.Tq * d);
  if (t.probs) need(t.probs, s.B * s.H * s.Tq * s.cap);
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
  [t.q, t.k, t.v, t.out, t.dout, t.dq, t.dk, t.dv].forEach((u) => need(u, n));
  need(t.probs, s.B * s.H * s.T * s.T);
  be.run(attentionBackwardQKernel, p, [t.k, t.v, t.probs, t.out, t.dout, t.dq]);
  be.run(attentionBackwardKVKernel, p, [t.q, t.v, t.probs, t.out, t.dout, t.dk, t.dv]);
}
