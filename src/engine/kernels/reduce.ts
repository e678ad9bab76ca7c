import shader from '../../../shaders/reduce.wgsl?raw';
import type { Backend, Tensor } from '../backend.ts';
import { BackendError } from '../errors.ts';
import { colSumFast } from '../cpu/fast/elementwise.ts';
import { grid, requireElements, type Kernel } from '../kernel.ts';

export interface ReduceParams {
  rows: number;
  cols: number;
  accumulate: boolean;
}

function reduceKernel(
  entry: 'row_sum' | 'row_max' | 'col_sum',
  cpu: Kernel<ReduceParams>['cpu'],
  cpuFast?: Kernel<ReduceParams>['cpuFast'],
): Kernel<ReduceParams> {
  return {
    name: `reduce.${entry}`,
    shader,
    entry,
    access: ['read', 'write'],
    uniforms: (p) => [
      ['u32', p.rows],
      ['u32', p.cols],
      ['u32', 0],
      ['u32', 0],
    ],
    constants: entry === 'row_max' ? undefined : (p) => ({ ACCUMULATE: Number(p.accumulate) }),
    workgroups: (p) => (entry === 'col_sum' ? grid(p.cols / 256) : grid(p.rows)),
    cpu,
    cpuFast,
  };
}

export const rowSumKernel = reduceKernel('row_sum', (p, [x, out]) => {
  for (let r = 0; r < p.rows; r++) {
    let s = 0;
    for (let j = 0; j < p.cols; j++) s += x[r * p.cols + j];
    out[r] = p.accumulate ? out[r] + s : s;
  }
});

export const rowMaxKernel = reduceKernel('row_max', (p, [x, out]) => {
  for (let r = 0; r < p.rows; r++) {
    let m = -Infinity;
    for (let j = 0; j < p.cols; j++) m = Math.max(m, x[r * p.cols + j]);
    out[r] = m;
  }
});

export const colSumKernel = reduceKernel(
  'col_sum',
  ({ rows, cols, accumulate }, [x, out]) => {
    // Four rows at a time into float64 column sums: each column adds up in the same order as
    // walking down it, but memory is read in order rather than one cache line per element.
    const sums = new Float64Array(cols);
    let r = 0;
    for (; r + 4 <= rows; r += 4) {
      const o = r * cols;
      for (let j = 0; j < cols; j++) {
        const i = o + j;
        sums[j] = sums[j] + x[i] + x[i + cols] + x[i + 2 * cols] + x[i + 3 * cols];
      }
    }
    for (; r < rows; r++) for (let j = 0; j < cols; j++) sums[j] += x[r * cols + j];
    for (let j = 0; j < cols; j++) out[j] = accumulate ? out[j] + sums[j] : sums[j];
  },
  colSumFast,
);

function check(op: string, x: Tensor, out: Tensor, rows: number, cols: number, outN: number): void {
  if (!(rows > 0 && cols > 0 && Number.isInteger(rows) && Number.isInteger(cols))) {
    throw new BackendError(`${op}: bad shape ${rows}×${cols}`);
  }
  requireElements(op, rows * cols, x);
  requireElements(op, outN, out);
}

/** out[r] = Σ_j x[r, j] (or out[r] += that). */
export function rowSum(
  be: Backend,
  out: Tensor,
  x: Tensor,
  rows: number,
  cols: number,
  accumulate = false,
): void {
  check('rowSum', x, out, rows, cols, rows);
  be.run(rowSumKernel, { rows, cols, accumulate }, [x, out]);
}

/** out[r] = max_j x[r, j]. */
export function rowMax(be: Backend, out: Tensor, x: Tensor, rows: number, cols: number): void {
  check('rowMax', x, out, rows, cols, rows);
  be.run(rowMaxKernel, { rows, cols, accumulate: false }, [x, out]);
}

/** out[j] = Σ_r x[r, j] (or out[j] += that): the gradient of a bias. */
export function colSum(
  be: Backend,
  out: Tensor,
  x: Tensor,
  rows: number,
  cols: number,
  accumulate = false,
): void {
  check('colSum', x, out, rows, cols, cols);
  be.run(colSumKernel, { rows, cols, accumulate }, [x, out]);
}
