import type { Backend, Tensor } from '../backend.ts';
import { adamw, type AdamWHyper } from '../kernels/adamw.ts';
import { axpby, mul } from '../kernels/elementwise.ts';
import { gelu, geluBackward } from '../kernels/gelu.ts';
import { matmul } from '../kernels/matmul.ts';
import { colSum, rowSum } from '../kernels/reduce.ts';
import { normals, uniforms } from '../random.ts';

/** The end-to-end proof of the engine: a 2-layer GELU MLP fitting a toy target with AdamW. */
export const MLP_SHAPE = { batch: 64, inputs: 4, hidden: 32 } as const;

const HYPER: AdamWHyper = { lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 1e-4 };

/** Toy regression target: y = sin(2·x0) + x1·x2 − 0.5·x3. */
function toyData(): { x: Float32Array; y: Float32Array } {
  const { batch, inputs } = MLP_SHAPE;
  const x = uniforms(77, batch * inputs, -1, 1);
  const y = new Float32Array(batch);
  for (let b = 0; b < batch; b++) {
    const r = x.subarray(b * inputs, (b + 1) * inputs);
    y[b] = Math.sin(2 * r[0]) + r[1] * r[2] - 0.5 * r[3];
  }
  return { x, y };
}

/** Train for `steps` AdamW steps on `be`; returns the loss before each step. */
export async function trainToyMlp(be: Backend, steps: number): Promise<number[]> {
  const { batch: B, inputs: I, hidden: H } = MLP_SHAPE;
  const data = toyData();
  const t = (n: number, label: string, init?: Float32Array): Tensor => {
    const x = be.alloc(n, 'f32', label);
    if (init) be.write(x, init);
    return x;
  };
  const X = t(B * I, 'x', data.x);
  const T = t(B, 'target', data.y);
  const params = {
    w1: t(I * H, 'w1', normals(11, I * H, 1 / Math.sqrt(I))),
    b1: t(H, 'b1'),
    w2: t(H, 'w2', normals(12, H, 1 / Math.sqrt(H))),
    b2: t(1, 'b2'),
  };
  const grads = Object.fromEntries(
    Object.entries(params).map(([k, p]) => [k, t(p.size, `d${k}`)]),
  ) as Record<keyof typeof params, Tensor>;
  const moments = Object.fromEntries(
    Object.entries(params).map(([k, p]) => [k, { m: t(p.size, `m.${k}`), v: t(p.size, `v.${k}`) }]),
  ) as Record<keyof typeof params, { m: Tensor; v: Tensor }>;
  const gradScale = t(1, 'grad scale', new Float32Array([1]));
  const Hpre = t(B * H, 'h.pre');
  const A = t(B * H, 'h.act');
  const Y = t(B, 'y');
  const D = t(B, 'y - target');
  const Sq = t(B, 'squared error');
  const Loss = t(1, 'loss');
  const dY = t(B, 'dy');
  const dA = t(B * H, 'dact');
  const dH = t(B * H, 'dpre');

  const losses: number[] = [];
  for (let step = 1; step <= steps; step++) {
    matmul(be, Hpre, X, params.w1, { M: B, N: H, K: I }, params.b1);
    gelu(be, A, Hpre);
    matmul(be, Y, A, params.w2, { M: B, N: 1, K: H }, params.b2);
    axpby(be, D, Y, T, 1, -1);
    mul(be, Sq, D, D, { alpha: 1 / B });
    rowSum(be, Loss, Sq, 1, B);
    losses.push((await be.read(Loss))[0]);

    axpby(be, dY, D, D, 2 / B, 0);
    matmul(be, grads.w2, A, dY, { M: H, N: 1, K: B, transA: true });
    colSum(be, grads.b2, dY, B, 1);
    matmul(be, dA, dY, params.w2, { M: B, N: H, K: 1, transB: true });
    geluBackward(be, dH, Hpre, dA);
    matmul(be, grads.w1, X, dH, { M: I, N: H, K: B, transA: true });
    colSum(be, grads.b1, dH, B, H);
    for (const k of Object.keys(params) as (keyof typeof params)[]) {
      adamw(be, { param: params[k], grad: grads[k], ...moments[k], gradScale }, HYPER, step);
    }
  }
  await be.flush();
  return losses;
}
