import shader from '../../../shaders/elementwise.wgsl?raw';
import fillShader from '../../../shaders/fill.wgsl?raw';
import type { Backend, Tensor } from '../backend.ts';
import { axpbyFast, mulFast } from '../cpu/fast/elementwise.ts';
import { grid, requireElements, type Kernel } from '../kernel.ts';

export interface ElementwiseParams {
  n: number;
  alpha: number;
  beta: number;
  accumulate: boolean;
}

function elementwiseKernel(
  entry: 'axpby' | 'mul',
  cpu: Kernel<ElementwiseParams>['cpu'],
  cpuFast: Kernel<ElementwiseParams>['cpuFast'],
): Kernel<ElementwiseParams> {
  return {
    name: `elementwise.${entry}`,
    shader,
    entry,
    access: ['read', 'read', 'write'],
    uniforms: (p) => [
      ['u32', p.n],
      ['f32', p.alpha],
      ['f32', p.beta],
      ['u32', 0],
    ],
    constants: (p) => ({ ACCUMULATE: Number(p.accumulate) }),
    workgroups: (p) => grid(p.n / 256),
    cpu,
    cpuFast,
  };
}

// Parameters in locals and one loop per case: V8 keeps each loop to loads, arithmetic and a store.
const f32 = Math.fround;
export const axpbyKernel = elementwiseKernel(
  'axpby',
  (p, [a, b, out]) => {
    const { n } = p;
    const alpha = f32(p.alpha);
    const beta = f32(p.beta);
    if (p.accumulate) for (let i = 0; i < n; i++) out[i] += alpha * a[i] + beta * b[i];
    else for (let i = 0; i < n; i++) out[i] = alpha * a[i] + beta * b[i];
  },
  axpbyFast,
);
export const mulKernel = elementwiseKernel(
  'mul',
  (p, [a, b, out]) => {
    const { n } = p;
    const alpha = f32(p.alpha);
    if (p.accumulate) for (let i = 0; i < n; i++) out[i] += alpha * a[i] * b[i];
    else for (let i = 0; i < n; i++) out[i] = alpha * a[i] * b[i];
  },
  mulFast,
);

export const fillKernel: Kernel<{ n: number; value: number }> = {
  name: 'fill',
  shader: fillShader,
  entry: 'fill',
  access: ['write'],
  uniforms: (p) => [
    ['u32', p.n],
    ['f32', p.value],
    ['u32', 0],
    ['u32', 0],
  ],
  workgroups: (p) => grid(p.n / 256),
  cpu: (p, [out]) => {
    out.fill(p.value, 0, p.n);
  },
};

/** out = alpha·a + beta·b, or out += that with `accumulate`. */
export function axpby(
  be: Backend,
  out: Tensor,
  a: Tensor,
  b: Tensor,
  alpha: number,
  beta: number,
  opts: { n?: number; accumulate?: boolean } = {},
): void {
  const n = opts.n ?? out.size;
  requireElements('axpby', n, out, a, b);
  be.run(axpbyKernel, { n, alpha, beta, accumulate: opts.accumulate ?? false }, [a, b, out]);
}

/** out = a + b (residual connection); out += a + b with `accumulate`. */
export function add(
  be: Backend,
  out: Tensor,
  a: Tensor,
  b: Tensor,
  opts: { n?: number; accumulate?: boolean } = {},
): void {
  axpby(be, out, a, b, 1, 1, opts);
}

/** out = alpha·a (or out += alpha·a). */
export function scale(
  be: Backend,
  out: Tensor,
  a: Tensor,
  alpha: number,
  opts: { n?: number; accumulate?: boolean } = {},
): void {
  axpby(be, out, a, a, alpha, 0, opts);
}

/** out = alpha·(a ⊙ b) (or out += that). */
export function mul(
  be: Backend,
  out: Tensor,
  a: Tensor,
  b: Tensor,
  opts: { alpha?: number; accumulate?: boolean } = {},
): void {
  const n = out.size;
  requireElements('mul', n, a, b);
  be.run(mulKernel, { n, alpha: opts.alpha ?? 1, beta: 0, accumulate: opts.accumulate ?? false }, [
    a,
    b,
    out,
  ]);
}

export function fill(be: Backend, out: Tensor, value = 0, n = out.size): void {
  requireElements('fill', n, out);
  be.run(fillKernel, { n, value }, [out]);
}
