import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceLostEvent } from '../backend.ts';
import { BackendError, DeviceLostError } from '../errors.ts';
import { matmul } from '../kernels/matmul.ts';
import { KERNEL_CHECKS } from '../selfcheck/kernel-checks.ts';
import { expectReadManyExact } from '../testing/read-many.ts';
import { nodeGpu } from './node-gpu.ts';
import { WebGpuBackend } from './webgpu-backend.ts';

async function open(): Promise<WebGpuBackend> {
  const r = await WebGpuBackend.create(nodeGpu());
  if (!r.ok) throw new Error(`no WebGPU in Node: ${r.reason}`);
  return r.backend;
}

describe('WebGpuBackend on Dawn', () => {
  let be: WebGpuBackend;
  beforeAll(async () => {
    be = await open();
  });
  afterAll(() => be.destroy());

  it('names its adapter', () => {
    expect(be.name).toMatch(/^WebGPU · \S+/);
  });

  for (const check of KERNEL_CHECKS) {
    it(`${check.kind}: ${check.name}`, async () => {
      const r = await check.run(be);
      expect(r.pass, r.detail).toBe(true);
    });
  }

  it('times each launch by kernel while profiling, and counts reads back to the host', async () => {
    const a = be.alloc(64 * 64);
    const c = be.alloc(64 * 64);
    const reads = be.readCount;
    be.startProfiling();
    for (let i = 0; i < 3; i++) matmul(be, c, a, a, { M: 64, N: 64, K: 64 });
    await be.read(c);
    const times = await be.stopProfiling();
    expect(be.readCount).toBe(reads + 1);
    if (be.lastGpuMs === null) {
      expect(times).toBeNull(); // an adapter without timestamp queries
    } else {
      expect(times).toHaveLength(1);
      expect(times![0]).toMatchObject({ kernel: 'matmul', calls: 3 });
      expect(times![0].ms).toBeGreaterThan(0);
    }
    // Profiling is off again: launches share one pass.
    matmul(be, c, a, a, { M: 64, N: 64, K: 64 });
    await be.flush();
    expect(await be.stopProfiling()).toBeNull();
    be.free(a);
    be.free(c);
  });

  it('reads several tensors of odd sizes back in one read, each exactly as written', async () => {
    await expectReadManyExact(be);
  });

  it('caches pipelines by kernel and constants', async () => {
    const be = await open();
    const a = be.alloc(16);
    const c = be.alloc(16);
    matmul(be, c, a, a, { M: 4, N: 4, K: 4 });
    const n = be.pipelineCount;
    matmul(be, c, a, a, { M: 4, N: 4, K: 4 });
    expect(be.pipelineCount).toBe(n);
    matmul(be, c, a, a, { M: 4, N: 4, K: 4, transB: true });
    expect(be.pipelineCount).toBe(n + 1);
    await be.flush();
    be.destroy();
  });

  it('times flushed work with timestamp queries', async () => {
    const a = be.alloc(64 * 64);
    const c = be.alloc(64 * 64);
    matmul(be, c, a, a, { M: 64, N: 64, K: 64 });
    await be.flush();
    expect(be.lastGpuMs).not.toBeNull();
    expect(be.lastGpuMs!).toBeGreaterThan(0);
  });

  it('refuses a buffer over the adapter limit with a clear error', () => {
    expect(() => be.alloc(be.maxElements + 1, 'f32', 'too big')).toThrow(BackendError);
    expect(() => be.alloc(be.maxElements + 1, 'f32', 'too big')).toThrow(
      /"too big".*exceed this adapter/,
    );
  });
});

describe('device loss', () => {
  it('surfaces device.destroy() mid-run as a typed event, then DeviceLostError', async () => {
    const be = await open();
    const events: DeviceLostEvent[] = [];
    be.onDeviceLost((e) => events.push(e));
    const a = be.alloc(256 * 256);
    const c = be.alloc(256 * 256);
    for (let i = 0; i < 4; i++) matmul(be, c, a, a, { M: 256, N: 256, K: 256 });
    const pending = be.read(c);
    be.device.destroy();
    await expect(pending).rejects.toThrow(DeviceLostError);
    await new Promise((r) => setTimeout(r, 10));
    expect(events).toEqual([expect.objectContaining({ type: 'device-lost', reason: 'destroyed' })]);
    expect(() => be.alloc(4)).toThrow(DeviceLostError);
  });
});
