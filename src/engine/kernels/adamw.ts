import shader from '../../../shaders/adamw.wgsl?raw';
import type { Backend, Tensor } from '../backend.ts';
import { adamwFast } from '../cpu/fast/elementwise.ts';
import { BackendError } from '../errors.ts';
import { grid, type Kernel } from '../kernel.ts';

export interface AdamWHyper {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
}

export const DEFAULT_ADAMW: AdamWHyper = {
  lr: 1e-3,
  beta1: 0.9,
  beta2: 0.999,
  eps: 1e-8,
  weightDecay: 0,
};

interface AdamWParams extends AdamWHyper {
  n: number;
  /** 1-based step count, for bias correction. */
  step: number;
}

const f = Math.fround;

/** The f32-rounded hyperparameters the GPU sees, so every path follows one trajectory. */
const hyper = (p: AdamWParams) => ({
  n: p.n,
  b1: f(p.beta1),
  b2: f(p.beta2),
  lr: f(p.lr),
  eps: f(p.eps),
  wd: f(p.weightDecay),
  bc1: f(1 - p.beta1 ** p.step),
  bc2: f(1 - p.beta2 ** p.step),
});

export const adamwKernel: Kernel<AdamWParams> = {
  name: 'adamw',
  shader,
  entry: 'adamw',
  access: ['read', 'read', 'write', 'write', 'write'],
  uniforms: (p) => [
    ['u32', p.n],
    ['f32', p.lr],
    ['f32', p.beta1],
    ['f32', p.beta2],
    ['f32', p.eps],
    ['f32', p.weightDecay],
    ['f32', 1 - p.beta1 ** p.step],
    ['f32', 1 - p.beta2 ** p.step],
  ],
  workgroups: (p) => grid(p.n / 256),
  cpu: (p, [grad, gscale, param, m, v]) => {
    const { n, b1, b2, lr, eps, wd, bc1, bc2 } = hyper(p);
    const s = gscale[0];
    if (s < 0) return; // a step skipped for a gradient that is not finite (gradnorm.ts)
    for (let i = 0; i < n; i++) {
      const g = grad[i] * s;
      const mi = b1 * m[i] + (1 - b1) * g;
      const vi = b2 * v[i] + (1 - b2) * g * g;
      m[i] = mi;
      v[i] = vi;
      const w = param[i];
      param[i] = w - lr * (mi / bc1 / (Math.sqrt(vi / bc2) + eps) + wd * w);
    }
  },
  cpuFast: (p, arrays) => adamwFast(hyper(p), arrays),
};

/**
 * One AdamW update of `param` from `grad`·gscale[0], with moment buffers `m` and `v`; none at all
 * where gscale[0] is negative (clipGradNorm's mark of a gradient that is not finite).
 */
export function adamw(
  be: Backend,
  t: { param: Tensor; grad: Tensor; m: Tensor; v: Tensor; gradScale: Tensor },
  hyper: AdamWHyper,
  step: number,
): void {
  const n = t.param.size;
  for (const x of [t.grad, t.m, t.v]) {
    if (x.size !== n)
      throw new BackendError(
        `adamw: "${x.label}" has ${x.size} elements, param "${t.param.label}" has ${n}`,
      );
  }
  if (!(Number.isInteger(step) && step >= 1))
    throw new BackendError(`adamw: step must be an integer ≥ 1, got ${step}`);
  be.run(adamwKernel, { ...hyper, n, step }, [t.grad, t.gradScale, t.param, t.m, t.v]);
}
