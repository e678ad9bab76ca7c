import shader from '../../../shaders/gradnorm.wgsl?raw';
import type { Backend, Tensor } from '../backend.ts';
import { BackendError } from '../errors.ts';
import { requireElements, type Kernel, type UniformField } from '../kernel.ts';

interface Params {
  n: number;
  slot: number;
  maxNorm: number;
}

const uniforms = (p: Params): UniformField[] => [
  ['u32', p.n],
  ['u32', p.slot],
  ['f32', p.maxNorm],
  ['u32', 0],
];

export const sumSquaresKernel: Kernel<Params> = {
  name: 'gradnorm.sum_squares',
  shader,
  entry: 'sum_squares',
  access: ['read', 'write'],
  uniforms,
  workgroups: () => [1, 1, 1],
  cpu: (p, [x, partial]) => {
    let s = 0;
    for (let i = 0; i < p.n; i++) s += x[i] * x[i];
    partial[p.slot] = s;
  },
};

export const clipScaleKernel: Kernel<Params> = {
  name: 'gradnorm.clip_scale',
  shader,
  entry: 'clip_scale',
  access: ['read', 'write'],
  uniforms,
  workgroups: () => [1, 1, 1],
  cpu: (p, [slots, out]) => {
    let total = 0;
    for (let i = 0; i < p.n; i++) total += slots[i];
    const norm = Math.sqrt(total);
    const factor = p.maxNorm > 0 && norm > p.maxNorm ? Math.fround(p.maxNorm) / (norm + 1e-6) : 1;
    out[0] = Number.isFinite(Math.fround(norm)) ? factor : SKIP_STEP;
    out[1] = norm;
  },
};

/** The clip factor of a step whose gradient norm is not finite: AdamW leaves everything as it is. */
export const SKIP_STEP = -1;

/**
 * Global L2 norm of `grads` and the clip factor for `maxNorm` (0 = no clipping), written to
 * out[0] (factor, or SKIP_STEP where the norm is not finite) and out[1] (norm). `slots` needs one
 * element per gradient tensor.
 */
export function clipGradNorm(
  be: Backend,
  grads: readonly Tensor[],
  slots: Tensor,
  out: Tensor,
  maxNorm: number,
): void {
  if (slots.size < grads.length) {
    throw new BackendError(
      `clipGradNorm: "${slots.label}" has ${slots.size} slots for ${grads.length} tensors`,
    );
  }
  requireElements('clipGradNorm', 2, out);
  grads.forEach((g, slot) => be.run(sumSquaresKernel, { n: g.size, slot, maxNorm }, [g, slots]));
  be.run(clipScaleKernel, { n: grads.length, slot: 0, maxNorm }, [slots, out]);
}
