import shader from '../../../shaders/gradnorm.wgsl?raw';
import type { Backend, Tensor } from '../backend.ts';
import { BackendError } from '../errors.ts';
import { requireElements, type Kernel, type UniformField } from '../kernel.ts';

/** Gradients one sum_squares launch takes (seven, and the slots: eight storage buffers). */
export const SUM_SQUARES_BATCH = 7;

interface SumParams {
  /** Elements of each tensor of the launch (at most SUM_SQUARES_BATCH). */
  sizes: readonly number[];
  /** Slot of the launch's first tensor; the others follow. */
  firstSlot: number;
}

export const sumSquaresKernel: Kernel<SumParams> = {
  name: 'gradnorm.sum_squares',
  shader,
  entry: 'sum_squares',
  access: [...Array<'read'>(SUM_SQUARES_BATCH).fill('read'), 'write'],
  uniforms: (p) => [
    ['u32', p.sizes.length],
    ['u32', p.firstSlot],
    ['f32', 0],
    ['u32', 0],
    ...Array.from({ length: 8 }, (_, t): UniformField => ['u32', p.sizes[t] ?? 0]),
  ],
  workgroups: (p) => [p.sizes.length, 1, 1],
  cpu: (p, tensors) => {
    const partial = tensors[SUM_SQUARES_BATCH];
    p.sizes.forEach((n, t) => {
      const x = tensors[t];
      let s = 0;
      for (let i = 0; i < n; i++) s += x[i] * x[i];
      partial[p.firstSlot + t] = s;
    });
  },
};

interface Params {
  n: number;
  maxNorm: number;
}

/** The shader's one uniform block: count, first slot, max norm, padding, eight sizes. */
const uniforms = (p: Params): UniformField[] => [
  ['u32', p.n],
  ['u32', 0],
  ['f32', p.maxNorm],
  ['u32', 0],
  ...Array.from({ length: 8 }, (): UniformField => ['u32', 0]),
];

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
 * Global L2 norm of `grads` (their sums of squares SUM_SQUARES_BATCH tensors per launch) and the clip factor for `maxNorm` (0 = no clipping), written to
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
  for (let first = 0; first < grads.length; first += SUM_SQUARES_BATCH) {
    const batch = grads.slice(first, first + SUM_SQUARES_BATCH);
    // Unused bindings take the batch's first tensor again (read-only, never read).
    const bound = Array.from({ length: SUM_SQUARES_BATCH }, (_, t) => batch[t] ?? batch[0]);
    be.run(sumSquaresKernel, { sizes: batch.map((g) => g.size), firstSlot: first }, [
      ...bound,
      slots,
    ]);
  }
  be.run(clipScaleKernel, { n: grads.length, maxNorm }, [slots, out]);
}
