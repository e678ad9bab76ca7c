import { describe, expect, it } from 'vitest';
import { BackendError } from '../errors.ts';
import { axpby } from '../kernels/elementwise.ts';
import { matmul } from '../kernels/matmul.ts';
import { KERNEL_CHECKS } from '../selfcheck/kernel-checks.ts';
import { expectReadManyExact } from '../testing/read-many.ts';
import { trainToyMlp } from '../selfcheck/mlp.ts';
import { CpuBackend } from './cpu-backend.ts';
import { hasRelaxedSimd } from './fast/heap.ts';

describe('CpuBackend', () => {
  it('computes a known matmul exactly', async () => {
    const be = new CpuBackend();
    const a = be.alloc(6);
    const b = be.alloc(6);
    const c = be.alloc(4);
    be.write(a, new Float32Array([1, 2, 3, 4, 5, 6])); // 2×3
    be.write(b, new Float32Array([7, 8, 9, 10, 11, 12])); // 3×2
    matmul(be, c, a, b, { M: 2, N: 2, K: 3 });
    expect([...(await be.read(c))]).toEqual([58, 64, 139, 154]);
    matmul(be, c, a, b, { M: 2, N: 2, K: 3, transA: false, transB: false, accumulate: true });
    expect([...(await be.read(c))]).toEqual([116, 128, 278, 308]);
  });

  it('rejects a written tensor bound twice, as WebGPU would', () => {
    const be = new CpuBackend();
    const a = be.alloc(4);
    expect(() => axpby(be, a, a, a, 1, 1)).toThrow(/written at binding 3 and also bound/);
  });

  it('rejects bad sizes, freed tensors and mismatched writes with clear errors', () => {
    const be = new CpuBackend();
    expect(() => be.alloc(0)).toThrow(BackendError);
    expect(() => be.alloc(2 ** 30, 'f32', 'huge')).toThrow(/huge.*exceed/);
    const t = be.alloc(3, 'f32', 'x');
    expect(() => be.write(t, new Float32Array(4))).toThrow(/overflow/);
    expect(() => be.write(t, new Uint32Array(3))).toThrow(/dtype/);
    const c = be.alloc(4, 'f32', 'c');
    expect(() => matmul(be, c, t, t, { M: 2, N: 2, K: 2 })).toThrow(/"x" has 3 elements, needs 4/);
    be.free(t);
    expect(() => be.write(t, new Float32Array(3))).toThrow(/freed/);
  });

  it('reads several tensors of odd sizes back in one read, each exactly as written', async () => {
    await expectReadManyExact(new CpuBackend());
  });

  it('trains the toy MLP: loss falls by more than half in 50 steps', async () => {
    const losses = await trainToyMlp(new CpuBackend(), 50);
    expect(losses[49]).toBeLessThan(0.5 * losses[0]);
  });

  // Parity checks hold the CPU backend's fast paths (WebAssembly SIMD) to the reference twins,
  // at the tolerance WebGPU is held to; gradient checks run the float64 twins.
  for (const check of KERNEL_CHECKS) {
    it(`self-check: ${check.name}`, async () => {
      const r = await check.run(new CpuBackend());
      expect(r.pass, r.detail).toBe(true);
    });
  }

  it('times each launch by kernel while profiling, and counts reads back to the host', async () => {
    const be = new CpuBackend();
    const a = be.alloc(256);
    const c = be.alloc(256);
    matmul(be, c, a, a, { M: 16, N: 16, K: 16 });
    be.startProfiling();
    matmul(be, c, a, a, { M: 16, N: 16, K: 16 });
    matmul(be, c, a, a, { M: 16, N: 16, K: 16 });
    await be.read(c);
    const times = await be.stopProfiling();
    expect(times).toEqual([{ kernel: 'matmul', calls: 2, ms: expect.any(Number) }]);
    expect(be.readCount).toBe(1);
    expect(await be.stopProfiling()).toEqual([]);
  });

  it('runs the fast paths in these tests (relaxed SIMD is on), and only the twins as reference', () => {
    expect(hasRelaxedSimd()).toBe(true);
    expect(new CpuBackend().reference).toBe(false);
    expect(new CpuBackend({ reference: true }).name).toBe('CPU (reference)');
    expect(new CpuBackend({ float64: true }).reference).toBe(true);
  });
});
