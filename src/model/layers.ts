import type { Backend, Tensor } from '../engine/backend.ts';
import { colSum } from '../engine/kernels/reduce.ts';
import { matmul } from '../engine/kernels/matmul.ts';
import type { Param } from './parameters.ts';

/** y[rows, out] = x[rows, in]·Wᵀ + b, with W in torch.nn.Linear layout [out, in]. */
export function linearForward(
  be: Backend,
  y: Tensor,
  x: Tensor,
  w: Param,
  b: Param | null,
  rows: number,
): void {
  const [out, inp] = w.spec.shape;
  matmul(be, y, x, w.value, { M: rows, N: out, K: inp, transB: true }, b?.value);
}

/**
 * Gradients of a linear layer: dW (+)= dyᵀ·x, db (+)= Σ_rows dy, and dx = dy·W when `dx` is given.
 * `accumulate` adds into the parameter gradients (several backward passes per optimizer step).
 */
export function linearBackward(
  be: Backend,
  t: { dy: Tensor; x: Tensor; w: Param; b: Param | null; dx: Tensor | null },
  rows: number,
  accumulate: boolean,
): void {
  const [out, inp] = t.w.spec.shape;
  matmul(be, t.w.grad, t.dy, t.x, { M: out, N: inp, K: rows, transA: true, accumulate });
  if (t.b) colSum(be, t.b.grad, t.dy, rows, out, accumulate);
  if (t.dx) matmul(be, t.dx, t.dy, t.w.value, { M: rows, N: inp, K: out });
}
