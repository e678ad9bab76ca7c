import shader from '../../../shaders/layernorm.wgsl?raw';
import type { Backend, Tensor } from '../backend.ts';
import {
  layerNormBackwardInputFast,
  layerNormBackwardParamsFast,
  layerNormForwardFast,
} from '../cpu/fast/layernorm.ts';
import { grid, requireElements, type Kernel, type UniformField } from '../kernel.ts';

export const LAYERNORM_EPS = 1e-5;

export interface LayerNormParams {
  rows: number;
  dim: number;
  eps: number;
  accumulate: boolean;
}

const uniforms = (p: LayerNormParams): UniformField[] => [
  ['u32', p.rows],
  ['u32', p.dim],
  ['f32', p.eps],
  ['u32', 0],
];

export const layerNormForwardKernel: Kernel<LayerNormParams> = {
  name: 'layernorm.forward',
  shader,
  entry: 'layernorm_forward',
  access: ['read', 'read', 'read', 'write', 'write', 'write'],
  uniforms,
  workgroups: (p) => grid(p.rows / 64),
  cpu: (p, [x, gamma, beta, y, mean, rstd]) => {
    // Params in locals: they come in several shapes, which V8 would otherwise check per element.
    const { rows, dim: D, eps } = p;
    for (let r = 0; r < rows; r++) {
      const o = r * D;
      let m = 0;
      for (let c = 0; c < D; c++) m += x[o + c];
      m /= D;
      let v = 0;
      for (let c = 0; c < D; c++) {
        const e = x[o + c] - m;
        v += e * e;
      }
      const s = 1 / Math.sqrt(v / D + eps);
      for (let c = 0; c < D; c++) y[o + c] = (x[o + c] - m) * s * gamma[c] + beta[c];
      mean[r] = m;
      rstd[r] = s;
    }
  },
  cpuFast: layerNormForwardFast,
};

export const layerNormBackwardInputKernel: Kernel<LayerNormParams> = {
  name: 'layernorm.backward_input',
  shader,
  entry: 'layernorm_backward_input',
  access: ['read', 'read', 'read', 'read', 'read', 'write'],
  uniforms,
  constants: (p) => ({ ACCUMULATE: Number(p.accumulate) }),
  workgroups: (p) => grid(p.rows / 64),
  cpu: (p, [x, gamma, mean, rstd, dy, dx]) => {
    const { rows, dim: D, accumulate } = p;
    for (let r = 0; r < rows; r++) {
      const o = r * D;
      const m = mean[r];
      const s = rstd[r];
      let sumD = 0;
      let sumDX = 0;
      for (let c = 0; c < D; c++) {
        const dxhat = dy[o + c] * gamma[c];
        sumD += dxhat;
        sumDX += dxhat * (x[o + c] - m) * s;
      }
      const meanD = sumD / D;
      const meanDX = sumDX / D;
      for (let c = 0; c < D; c++) {
        const xhat = (x[o + c] - m) * s;
        const g = s * (dy[o + c] * gamma[c] - meanD - xhat * meanDX);
        dx[o + c] = accumulate ? dx[o + c] + g : g;
      }
    }
  },
  cpuFast: layerNormBackwardInputFast,
};

export const layerNormBackwardParamsKernel: Kernel<LayerNormParams> = {
  name: 'layernorm.backward_params',
  shader,
  entry: 'layernorm_backward_params',
  access: ['read', 'read', 'read', 'read', 'write', 'write'],
  uniforms,
  constants: (p) => ({ ACCUMULATE: Number(p.accumulate) }),
  workgroups: (p) => [Math.ceil(p.dim / 64), 1, 1],
  cpu: (p, [x, mean, rstd, dy, dgamma, dbeta]) => {
    const { rows, dim: D, accumulate } = p;
    if (!accumulate) {
      dgamma.fill(0, 0, D);
      dbeta.fill(0, 0, D);
    }
    for (let r = 0; r < rows; r++) {
      const o = r * D;
      const m = mean[r];
      const s = rstd[r];
      for (let c = 0; c < D; c++) {
        const g = dy[o + c];
        dgamma[c] += g * (x[o + c] - m) * s;
        dbeta[c] += g;
      }
    }
  },
  cpuFast: layerNormBackwardParamsFast,
};

export interface LayerNormShape {
  rows: number;
  dim: number;
}

/** y = LayerNorm(x)·gamma + beta per row; saves mean and rstd for the backward. */
export function layerNormForward(
  be: Backend,
  t: { x: Tensor; gamma: Tensor; beta: Tensor; y: Tensor; mean: Tensor; rstd: Tensor },
  s: LayerNormShape,
): void {
  requireElements('layernorm', s.rows * s.dim, t.x, t.y);
  requireElements('layernorm', s.dim, t.gamma, t.beta);
  requireElements('layernorm', s.rows, t.mean, t.rstd);
  be.run(layerNormForwardKernel, { ...s, eps: LAYERNORM_EPS, accumulate: false }, [
    t.x,
    t.gamma,
    t.beta,
    t.y,
    t.mean,
    t.rstd,
  ]);
}

/**
 * Gradients of LayerNorm: dx (accumulated into, for the residual stream, when `accumulate`),
 * and dgamma/dbeta.
 */
export function layerNormBackward(
  be: Backend,
  t: {
    x: Tensor;
    gamma: Tensor;
    mean: Tensor;
    rstd: Tensor;
    dy: Tensor;
    dx: Tensor;
    dgamma: Tensor;
    dbeta: Tensor;
  },
  s: LayerNormShape & { accumulateInput?: boolean; accumulateParams?: boolean },
): void {
  requireElements('layernorm', s.rows * s.dim, t.x, t.dy, t.dx);
  requireElements('layernorm', s.dim, t.gamma, t.dgamma, t.dbeta);
  requireElements('layernorm', s.rows, t.mean, t.rstd);
  const base = { rows: s.rows, dim: s.dim, eps: LAYERNORM_EPS };
  be.run(layerNormBackwardInputKernel, { ...base, accumulate: s.accumulateInput ?? false }, [
    t.x,
    t.gamma,
    t.mean,
    t.rstd,
    t.dy,
    t.dx,
  ]);
  be.run(layerNormBackwardParamsKernel, { ...base, accumulate: s.accumulateParams ?? false }, [
    t.x,
    t.mean,
    t.rstd,
    t.dy,
    t.dgamma,
    t.dbeta,
  ]);
}
