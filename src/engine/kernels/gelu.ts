import shader from '../../../shaders/gelu.wgsl?raw';
import type { Backend, Tensor } from '../backend.ts';
import { exp } from '../cpu/exp.ts';
import { geluBackwardFast, geluForwardFast } from '../cpu/fast/gelu.ts';
import { grid, requireElements, type Kernel } from '../kernel.ts';

const SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);
const COEF = 0.044715;

function inner(x: number): number {
  return Math.min(15, Math.max(-15, SQRT_2_OVER_PI * (x + COEF * x * x * x)));
}

/**
 * tanh(u) = (1 − e)/(1 + e) with e = e^(−2u), for the clamped |u| ≤ 15: within a few ulps of
 * Math.tanh in absolute terms, which is all that 1 + t and 1 − t² can see, at half its cost.
 */
function tanh(u: number): number {
  const e = exp(-2 * u);
  return (1 - e) / (1 + e);
}

export function geluValue(x: number): number {
  return 0.5 * x * (1 + tanh(inner(x)));
}

export function geluGrad(x: number): number {
  const t = tanh(inner(x));
  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * SQRT_2_OVER_PI * (1 + 3 * COEF * x * x);
}

export const geluForwardKernel: Kernel<{ n: number }> = {
  name: 'gelu.forward',
  shader,
  entry: 'gelu_forward',
  access: ['read', 'write'],
  uniforms: (p) => [
    ['u32', p.n],
    ['u32', 0],
    ['u32', 0],
    ['u32', 0],
  ],
  workgroups: (p) => grid(p.n / 256),
  cpu: ({ n }, [x, y]) => {
    for (let i = 0; i < n; i++) y[i] = geluValue(x[i]);
  },
  cpuFast: ({ n }, [x, y]) => geluForwardFast(n, x, y),
};

export const geluBackwardKernel: Kernel<{ n: number; accumulate: boolean }> = {
  name: 'gelu.backward',
  shader,
  entry: 'gelu_backward',
  access: ['read', 'read', 'write'],
  uniforms: (p) => [
    ['u32', p.n],
    ['u32', 0],
    ['u32', 0],
    ['u32', 0],
  ],
  constants: (p) => ({ ACCUMULATE: Number(p.accumulate) }),
  workgroups: (p) => grid(p.n / 256),
  cpu: ({ n, accumulate }, [x, dy, dx]) => {
    for (let i = 0; i < n; i++) {
      const g = dy[i] * geluGrad(x[i]);
      dx[i] = accumulate ? dx[i] + g : g;
    }
  },
  cpuFast: ({ n, accumulate }, [x, dy, dx]) => geluBackwardFast(n, accumulate, x, dy, dx),
};

export function gelu(be: Backend, y: Tensor, x: Tensor, n = y.size): void {
  requireElements('gelu', n, x, y);
  be.run(geluForwardKernel, { n }, [x, y]);
}

/** dx = dy·gelu'(x), or dx += that with `accumulate`. */
export function geluBackward(
  be: Backend,
  dx: Tensor,
  x: Tensor,
  dy: Tensor,
  opts: { n?: number; accumulate?: boolean } = {},
): void {
  const n = opts.n ?? dx.size;
  requireElements('geluBackward', n, x, dy, dx);
  be.run(geluBackwardKernel, { n, accumulate: opts.accumulate ?? false }, [x, dy, dx]);
}
