import shader from '../../../shaders/advantage.wgsl?raw';
import type { Backend, Tensor } from '../backend.ts';
import { BackendError } from '../errors.ts';
import { grid, requireElements, type Kernel, type UniformField } from '../kernel.ts';

interface Params {
  groups: number;
  size: number;
  eps: number;
  n: number;
  scaleByStd: boolean;
}

const uniforms = (p: Params): UniformField[] => [
  ['u32', p.groups],
  ['u32', p.size],
  ['f32', p.eps],
  ['u32', p.n],
];

export const groupNormalizeKernel: Kernel<Params> = {
  name: 'advantage.group_normalize',
  shader,
  entry: 'group_normalize',
  access: ['read', 'write'],
  uniforms,
  constants: (p) => ({ SCALE_BY_STD: Number(p.scaleByStd) }),
  workgroups: (p) => [Math.ceil(p.groups / 64), 1, 1],
  cpu: (p, [x, out]) => {
    for (let g = 0; g < p.groups; g++) {
      const o = g * p.size;
      let mean = 0;
      for (let i = 0; i < p.size; i++) mean += x[o + i];
      mean /= p.size;
      let spread = 0;
      let varSum = 0;
      for (let i = 0; i < p.size; i++) {
        const d = x[o + i] - mean;
        spread = Math.max(spread, Math.abs(d));
        varSum += d * d;
      }
      const std = Math.sqrt(varSum / (Math.max(p.size, 2) - 1));
      for (let i = 0; i < p.size; i++) {
        let a = 0;
        if (spread > 0) {
          a = x[o + i] - mean;
          if (p.scaleByStd) a /= std + Math.fround(p.eps);
        }
        out[o + i] = a;
      }
    }
  },
};

export const gatherScaleKernel: Kernel<Params> = {
  name: 'advantage.gather_scale',
  shader,
  entry: 'gather_scale',
  access: ['read', 'read', 'read', 'write'],
  uniforms,
  workgroups: (p) => grid(p.n / 256),
  cpu: (p, [src, index, coef, dst]) => {
    for (let i = 0; i < p.n; i++) dst[i] = coef[i] * src[index[i]];
  },
};

/**
 * Per group of `size` values: (x − mean)/(std + eps), or x − mean without std scaling. Groups of
 * all-equal values get exactly zero (never NaN, never eps-sized noise).
 */
export function groupNormalize(
  be: Backend,
  out: Tensor,
  x: Tensor,
  s: { groups: number; size: number; scaleByStd: boolean; eps?: number },
): void {
  const n = s.groups * s.size;
  if (!(Number.isInteger(s.groups) && s.groups > 0 && Number.isInteger(s.size) && s.size > 0)) {
    throw new BackendError(`groupNormalize: bad shape ${s.groups}×${s.size}`);
  }
  requireElements('groupNormalize', n, x, out);
  be.run(groupNormalizeKernel, { ...s, eps: s.eps ?? 1e-4, n }, [x, out]);
}

/** dst[i] = coef[i]·src[index[i]] for i < n. */
export function gatherScale(
  be: Backend,
  dst: Tensor,
  src: Tensor,
  index: Tensor,
  coef: Tensor,
  n: number,
): void {
  if (index.dtype !== 'u32') throw new BackendError('gatherScale: index must be u32');
  requireElements('gatherScale', n, dst, index, coef);
  be.run(gatherScaleKernel, { groups: 0, size: 0, eps: 0, n, scaleByStd: false }, [
    src,
    index,
    coef,
    dst,
  ]);
}
