import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu/cpu-backend.ts';
import { gatherRows } from './gather.ts';

describe('gather rows', () => {
  it('copies each indexed row from its offset; an index past the rows reads the last', async () => {
    const be = new CpuBackend();
    const src = be.alloc(12);
    be.write(
      src,
      Float32Array.from({ length: 12 }, (_, i) => i),
    );
    const index = be.alloc(4, 'u32');
    be.write(index, Uint32Array.from([2, 0, 7, 1]));
    const dst = be.alloc(8);
    // Rows of 4, the last 2 of each.
    gatherRows(be, dst, src, index, { rows: 4, rowLen: 2, stride: 4, offset: 2, srcRows: 3 });
    expect(Array.from(await be.read(dst))).toEqual([10, 11, 2, 3, 10, 11, 6, 7]);
  });

  it('refuses a row that overflows its stride, a float index, or a short buffer', () => {
    const be = new CpuBackend();
    const [src, dst] = [be.alloc(12), be.alloc(8)];
    const index = be.alloc(4, 'u32');
    const p = { rows: 4, rowLen: 2, stride: 4, offset: 2, srcRows: 3 };
    expect(() => gatherRows(be, dst, src, index, { ...p, offset: 3 })).toThrow(
      /overflows its stride/,
    );
    expect(() => gatherRows(be, dst, src, be.alloc(4), p)).toThrow(/must be u32/);
    expect(() => gatherRows(be, dst, src, index, { ...p, srcRows: 4 })).toThrow(/gather src/);
    expect(() => gatherRows(be, dst, src, index, { ...p, srcRows: 0 })).toThrow(/srcRows must be/);
    expect(() => gatherRows(be, dst, src, index, { ...p, rows: 1.5 })).toThrow(/rows must be/);
    expect(() => gatherRows(be, dst, src, index, { ...p, rowLen: 3, offset: 1 })).toThrow(
      /gather dst/,
    );
  });
});
