import shader from '../../../shaders/rope.wgsl?raw';
import type { Backend, NumArray, Tensor } from '../backend.ts';
import { ropeBackwardFast, ropeForwardFast } from '../cpu/fast/rope.ts';
import { BackendError } from '../errors.ts';
import { shapeUniforms, type AttentionShape } from './attention.ts';
import { grid, requireElements, type Kernel, type UniformField } from '../kernel.ts';

/** Attention's shape: RoPE writes the caches attention reads. */
export interface RopeShape extends AttentionShape {
  /** Positions covered by the cos/sin table. */
  tableLen: number;
}

const uniforms = (p: RopeShape): UniformField[] => [
  ...shapeUniforms(p),
  ['u32', p.tableLen],
  ['u32', 0],
];

/** cos/sin of pos·base^(−2i/dh) for every position and pair, as the kernels read them. */
export function ropeTable(positions: number, dh: number, base = 10000): Float32Array {
  const half = dh / 2;
  const out = new Float32Array(positions * half * 2);
  for (let pos = 0; pos < positions; pos++) {
    for (let i = 0; i < half; i++) {
      const angle = pos * base ** (-(2 * i) / dh);
      out[(pos * half + i) * 2] = Math.cos(angle);
      out[(pos * half + i) * 2 + 1] = Math.sin(angle);
    }
  }
  return out;
}

function position(col: number, start: number, tableLen: number): number {
  return Math.min(col >= start ? col - start : 0, tableLen - 1);
}

export const ropeForwardKernel: Kernel<RopeShape> = {
  name: 'rope.forward',
  shader,
  entry: 'rope_forward',
  access: ['read', 'read', 'read', 'write', 'write', 'write'],
  uniforms,
  workgroups: (p) => grid((p.B * p.Tq * p.H * (p.dh / 2)) / 64),
  cpu: (p, [qkv, start, table, q, kc, vc]) => {
    // The shape in locals: V8 sees params of several shapes, and keeps the loops tight this way.
    const { B, Tq, H, dh, cap, qOffset, tableLen } = p;
    const half = dh / 2;
    const d = H * dh;
    for (let b = 0; b < B; b++)
      for (let t = 0; t < Tq; t++) {
        const col = qOffset + t;
        const pos = position(col, start[b], tableLen);
        const row = (b * Tq + t) * 3 * d;
        for (let h = 0; h < H; h++) {
          const qo = ((b * H + h) * Tq + t) * dh;
          const ko = ((b * H + h) * cap + col) * dh;
          const r = row + h * dh;
          for (let i = 0; i < half; i++) {
            const c = table[(pos * half + i) * 2];
            const s = table[(pos * half + i) * 2 + 1];
            rotate(q, qo, qkv[r + i], qkv[r + i + half], c, s, i, half);
            rotate(kc, ko, qkv[r + d + i], qkv[r + d + i + half], c, s, i, half);
            vc[ko + i] = qkv[r + 2 * d + i];
            vc[ko + i + half] = qkv[r + 2 * d + i + half];
          }
        }
      }
  },
  cpuFast: ropeForwardFast,
};

function rotate(
  out: NumArray,
  o: number,
  x1: number,
  x2: number,
  c: number,
  s: number,
  i: number,
  half: number,
): void {
  out[o + i] = x1 * c - x2 * s;
  out[o + i + half] = x1 * s + x2 * c;
}

export const ropeBackwardKernel: Kernel<RopeShape> = {
  name: 'rope.backward',
  shader,
  entry: 'rope_backward',
  access: ['read', 'read', 'read', 'read', 'read', 'write'],
  uniforms,
  workgroups: (p) => grid((p.B * p.Tq * p.H * (p.dh / 2)) / 64),
  cpu: (p, [dq, dk, dv, start, table, dqkv]) => {
    const { B, Tq, H, dh, tableLen } = p;
    const half = dh / 2;
    const d = H * dh;
    for (let b = 0; b < B; b++)
      for (let t = 0; t < Tq; t++) {
        const pos = position(t, start[b], tableLen);
        for (let h = 0; h < H; h++) {
          const o = ((b * H + h) * Tq + t) * dh;
          const row = (b * Tq + t) * 3 * d + h * dh;
          for (let i = 0; i < half; i++) {
            const c = table[(pos * half + i) * 2];
            const s = table[(pos * half + i) * 2 + 1];
            rotate(dqkv, row, dq[o + i], dq[o + i + half], c, -s, i, half);
            rotate(dqkv, row + d, dk[o + i], dk[o + i + half], c, -s, i, half);
            dqkv[row + 2 * d + i] = dv[o + i];
            dqkv[row + 2 * d + i + half] = dv[o + i + half];
          }
        }
      }
  },
  cpuFast: ropeBackwardFast,
};

function validate(s: RopeShape): void {
  if (s.dh % 2 !== 0) throw new BackendError(`rope: head dimension ${s.dh} must be even`);
  if (s.qOffset + s.Tq > s.cap) {
    throw new BackendError(
      `rope: columns ${s.qOffset}..${s.qOffset + s.Tq} exceed the cache's ${s.cap}`,
    );
  }
}

/** Split qkv into rotated q (head-major) and rotated k / plain v written into the caches. */
export function ropeForward(
  be: Backend,
  t: { qkv: Tensor; start: Tensor; table: Tensor; q: Tensor; kCache: Tensor; vCache: Tensor },
  s: RopeShape,
): void {
  validate(s);
  const d = s.H * s.dh;
  requireElements('rope', s.B * s.Tq * 3 * d, t.qkv);
  requireElements('rope', s.B, t.start);
  requireElements('rope', s.tableLen * s.dh, t.table);
  requireElements('rope', s.B * s.Tq * d, t.q);
  requireElements('rope', s.B * s.cap * d, t.kCache);
  requireElements('rope', s.B * s.cap * d, t.vCache);
  be.run(ropeForwardKernel, s, [t.qkv, t.start, t.table, t.q, t.kCache, t.vCache]);
}

/** Gradients of q, k, v (training layout) back to the fused qkv projection output. */
export function ropeBackward(
  be: Backend,
  t: { dq: Tensor; dk: Tensor; dv: Tensor; start: Tensor; table: Tensor; dqkv: Tensor },
  s: Omit<RopeShape, 'cap' | 'qOffset'>,
): void {
  const full = { ...s, cap: s.Tq, qOffset: 0 };
  validate(full);
  const n = s.B * s.Tq * s.H * s.dh;
  requireElements('rope', n, t.dq, t.dk, t.dv);
  requireElements('rope', 3 * n, t.dqkv);
  be.run(ropeBackwardKernel, full, [t.dq, t.dk, t.dv, t.start, t.table, t.dqkv]);
}
