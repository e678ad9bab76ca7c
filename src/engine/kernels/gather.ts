import shader from '../../../shaders/gather.wgsl?raw';
import type { Backend, Tensor } from '../backend.ts';
import { BackendError } from '../errors.ts';
import { grid, requireElements, type Kernel } from '../kernel.ts';

/** Which rows: `rows` rows of `rowLen` from src rows of `stride` elements, each from `offset`. */
export interface GatherParams {
  rows: number;
  rowLen: number;
  stride: number;
  offset: number;
  /** Rows in src: an index past them reads the last one rather than memory. */
  srcRows: number;
}

export const gatherRowsKernel: Kernel<GatherParams> = {
  name: 'gather.rows',
  shader,
  entry: 'gather_rows',
  access: ['read', 'read', 'write'],
  uniforms: (p) => [
    ['u32', p.rows],
    ['u32', p.rowLen],
    ['u32', p.stride],
    ['u32', p.offset],
    ['u32', p.srcRows],
    ['u32', 0],
    ['u32', 0],
    ['u32', 0],
  ],
  workgroups: (p) => grid((p.rows * p.rowLen) / 256),
  cpu: ({ rows, rowLen, stride, offset, srcRows }, [index, src, dst]) => {
    for (let r = 0; r < rows; r++) {
      const from = Math.min(index[r], srcRows - 1) * stride + offset;
      dst.set(src.subarray(from, from + rowLen), r * rowLen);
    }
  },
};

/** dst[r] = src row index[r] (rowLen elements at offset within rows of stride), r < rows. */
export function gatherRows(
  be: Backend,
  dst: Tensor,
  src: Tensor,
  index: Tensor,
  p: GatherParams,
): void {
  if (index.dtype !== 'u32') throw new BackendError(`gather: index "${index.label}" must be u32`);
  for (const k of ['rows', 'rowLen', 'srcRows'] as const)
    if (!Number.isInteger(p[k]) || p[k] < 1)
      throw new BackendError(`gather: ${k} must be a positive integer, got ${p[k]}`);
  if (p.offset + p.rowLen > p.stride)
    throw new BackendError(
      `gather: a row of ${p.rowLen} at ${p.offset} overflows its stride ${p.stride}`,
    );
  requireElements('gather index', p.rows, index);
  requireElements('gather src', p.srcRows * p.stride, src);
  requireElements('gather dst', p.rows * p.rowLen, dst);
  be.run(gatherRowsKernel, p, [index, src, dst]);
}
