import shader from '../../../shaders/logsoftmax.wgsl?raw';
import type { Backend, Tensor } from '../backend.ts';
import { exp } from '../cpu/exp.ts';
import { BackendError } from '../errors.ts';
import { grid, requireElements, type Kernel, type UniformField } from '../kernel.ts';

interface Shape {
  rows: number;
  vocab: number;
}

const uniforms = (p: Shape): UniformField[] => [
  ['u32', p.rows],
  ['u32', p.vocab],
  ['u32', 0],
  ['u32', 0],
];

export const logSoftmaxForwardKernel: Kernel<Shape> = {
  name: 'logsoftmax.forward',
  shader,
  entry: 'logsoftmax_forward',
  access: ['read', 'read', 'write', 'write', 'write'],
  uniforms,
  workgroups: (p) => grid(p.rows / 64),
  cpu: ({ rows, vocab }, [logits, targets, logp, lse, entropy]) => {
    for (let n = 0; n < rows; n++) {
      const o = n * vocab;
      let m = -Infinity;
      for (let v = 0; v < vocab; v++) m = Math.max(m, logits[o + v]);
      let z = 0;
      let zl = 0;
      for (let v = 0; v < vocab; v++) {
        const e = exp(logits[o + v] - m);
        z += e;
        zl += e * logits[o + v];
      }
      const l = m + Math.log(z);
      lse[n] = l;
      logp[n] = logits[o + Math.min(targets[n], vocab - 1)] - l;
      entropy[n] = l - zl / z;
    }
  },
};

export const logSoftmaxBackwardKernel: Kernel<Shape> = {
  name: 'logsoftmax.backward',
  shader,
  entry: 'logsoftmax_backward',
  access: ['read', 'read', 'read', 'read', 'write'],
  uniforms,
  workgroups: (p) => grid((p.rows * p.vocab) / 256),
  cpu: ({ rows, vocab }, [logits, targets, lse, weights, dlogits]) => {
    for (let n = 0; n < rows; n++) {
      const o = n * vocab;
      const w = weights[n];
      const l = lse[n];
      const target = targets[n];
      for (let v = 0; v < vocab; v++) {
        dlogits[o + v] = w * (exp(logits[o + v] - l) - (target === v ? 1 : 0));
      }
    }
  },
};

/** Per row: log p(target), the log-sum-exp (kept for the backward) and the entropy. */
export function logSoftmaxForward(
  be: Backend,
  t: { logits: Tensor; targets: Tensor; logp: Tensor; lse: Tensor; entropy: Tensor },
  s: Shape,
): void {
  requireElements('logsoftmax', s.rows * s.vocab, t.logits);
  requireElements('logsoftmax', s.rows, t.targets, t.logp, t.lse, t.entropy);
  if (t.targets.dtype !== 'u32') throw new BackendError('logsoftmax: targets must be u32');
  be.run(logSoftmaxForwardKernel, s, [t.logits, t.targets, t.logp, t.lse, t.entropy]);
}

/** dlogits of L = −Σ_n w_n·log p(target_n). */
export function logSoftmaxBackward(
  be: Backend,
  t: { logits: Tensor; targets: Tensor; lse: Tensor; weights: Tensor; dlogits: Tensor },
  s: Shape,
): void {
  requireElements('logsoftmax', s.rows * s.vocab, t.logits);
  requireElements('logsoftmax', s.rows * s.vocab, t.dlogits);
  requireElements('logsoftmax', s.rows, t.targets, t.lse, t.weights);
  be.run(logSoftmaxBackwardKernel, s, [t.logits, t.targets, t.lse, t.weights, t.dlogits]);
}
