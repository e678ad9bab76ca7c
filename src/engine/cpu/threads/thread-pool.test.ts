import { afterEach, describe, expect, it } from 'vitest';
import { CpuBackend } from '../cpu-backend.ts';
import type { Tensor } from '../../backend.ts';
import { matmul, type MatmulParams } from '../../kernels/matmul.ts';
import { gelu, geluBackward } from '../../kernels/gelu.ts';
import {
  attentionBackwardKVKernel,
  attentionBackwardQKernel,
  attentionForwardKernel,
} from '../../kernels/attention.ts';
import { spawnNodeThread } from './node-threads.ts';
import {
  CHUNK_WORK,
  parallel,
  poolThreads,
  splitRange,
  startThreadPool,
  stopThreadPool,
} from './thread-pool.ts';
import { instantiate } from '../fast/heap.ts';

const be = new CpuBackend();

function filled(n: number, seed: number): Tensor {
  const t = be.alloc(n);
  const v = be.view(t) as Float32Array;
  for (let i = 0; i < n; i++) v[i] = Math.sin(seed * 7.31 + i * 0.377) * 1.7;
  return t;
}

/** The outputs of `run` with one thread, then with a pool of `threads`: they must agree bit for bit. */
async function oneAndPooled(
  threads: number,
  run: () => Tensor[],
): Promise<[Float32Array[], Float32Array[]]> {
  stopThreadPool();
  const one = run().map((t) => Float32Array.from(be.view(t) as Float32Array));
  expect(startThreadPool(threads, spawnNodeThread)).toEqual({ threads, reason: null });
  const pooled = run().map((t) => Float32Array.from(be.view(t) as Float32Array));
  return [one, pooled];
}

const bits = (a: Float32Array) => new Uint32Array(a.buffer);

afterEach(() => stopThreadPool());

describe('the CPU thread pool', () => {
  it('splits a range into whole multiples, the last taking the rest, and not at all for little work', () => {
    stopThreadPool();
    expect(splitRange(100, 3, 1 << 30)).toEqual([[0, 100]]);
    startThreadPool(3, spawnNodeThread);
    expect(poolThreads()).toBe(3);
    const pieces = splitRange(100, 3, 1 << 30);
    expect(pieces).toHaveLength(12);
    expect(pieces.slice(0, -1).every(([, n]) => n % 3 === 0)).toBe(true);
    expect(pieces.reduce((s, [start, n]) => (expect(start).toBe(s), s + n), 0)).toBe(100);
    expect(splitRange(100, 3, 10)).toEqual([[0, 100]]);
    // One piece per CHUNK_WORK of work: worth waking a thread for.
    expect(splitRange(100, 3, 2.5 * CHUNK_WORK)).toHaveLength(2);
    expect(splitRange(100, 3, 1 << 30, 2)).toHaveLength(2);
  });

  it('runs every chunk once, whichever thread takes it', async () => {
    // Each chunk writes its index after a few microseconds' work, time for a thread to take another.
    const wasm = instantiate<{ mark(at: number, i: number): void; who(): number }>(`
      (func $mark (param $at i32) (param $i i32) (local $k i32)
        local.get $at local.get $i i32.store
        i32.const 20000 local.set $k
        block $done loop $next
          local.get $k i32.eqz br_if $done
          local.get $k i32.const 1 i32.sub local.set $k br $next
        end end)`);
    expect(wasm).not.toBeNull();
    startThreadPool(2, spawnNodeThread);
    const t = be.alloc(64, 'i32');
    const at = be.view(t).byteOffset;
    for (let round = 0; round < 50; round++) {
      be.view(t).fill(-1);
      parallel(
        wasm!.mark,
        Array.from({ length: 64 }, (_, i) => [at + 4 * i, i]),
      );
      expect(Array.from(be.view(t))).toEqual(Array.from({ length: 64 }, (_, i) => i));
    }
  });

  it('refuses a function that is not of the heap, and a pool of zero threads', () => {
    startThreadPool(2, spawnNodeThread);
    expect(() => parallel(() => {}, [[1], [2]])).toThrow(/heap's modules/);
    const wasm = instantiate<{ f(a: number): void }>('(func $f (param $a i32))');
    expect(() => parallel(wasm!.f, [[1], [2, 3]])).toThrow(/chunks of as many arguments/);
    // A refused job leaves the pool as it was: the next one runs.
    parallel(wasm!.f, [[1], [2]]);
    expect(() => startThreadPool(0, spawnNodeThread)).toThrow(/threads must be ≥ 1/);
  });

  it('says why it runs on one thread where a thread cannot start', () => {
    const status = startThreadPool(2, () => {
      throw new Error('no workers here');
    });
    expect(status).toEqual({ threads: 1, reason: 'a thread could not start: no workers here' });
    expect(poolThreads()).toBe(1);
  });

  const shapes: [string, MatmulParams, boolean][] = [
    ['A·B, bias', { M: 1030, N: 256, K: 64 }, true],
    ['A·Bᵀ, accumulating', { M: 700, N: 64, K: 256, transB: true, accumulate: true }, false],
    [
      'Aᵀ·B, K over several passes (a weight gradient)',
      { M: 64, N: 256, K: 1100, transA: true },
      false,
    ],
    [
      'Aᵀ·B accumulating over several passes',
      { M: 256, N: 64, K: 1024, transA: true, accumulate: true },
      false,
    ],
    ['batched, strided', { M: 130, N: 32, K: 48, batch: 40 }, false],
  ];
  for (const [name, p, withBias] of shapes) {
    it(`matmul on the pool equals matmul on one thread bit for bit: ${name}`, async () => {
      const batch = p.batch ?? 1;
      const a = filled(batch * p.M * p.K, 1);
      const b = filled(batch * p.K * p.N, 2);
      const bias = withBias ? filled(p.N, 3) : undefined;
      const c0 = filled(batch * p.M * p.N, 4);
      const c = be.alloc(batch * p.M * p.N);
      const [one, pooled] = await oneAndPooled(3, () => {
        be.write(c, be.view(c0) as Float32Array);
        matmul(be, c, a, b, p, bias);
        return [c];
      });
      expect(bits(pooled[0])).toEqual(bits(one[0]));
    });
  }

  it('gelu and its backward on the pool equal one thread bit for bit (with a ragged tail)', async () => {
    const n = 300_003;
    const x = filled(n, 5);
    const dy = filled(n, 6);
    const y = be.alloc(n);
    const dx0 = filled(n, 7);
    const dx = be.alloc(n);
    const [one, pooled] = await oneAndPooled(2, () => {
      be.write(dx, be.view(dx0) as Float32Array);
      gelu(be, y, x);
      geluBackward(be, dx, x, dy, { accumulate: true });
      return [y, dx];
    });
    expect(bits(pooled[0])).toEqual(bits(one[0]));
    expect(bits(pooled[1])).toEqual(bits(one[1]));
  });

  it("attention's three kernels on the pool equal one thread bit for bit", async () => {
    const [B, H, T, dh] = [37, 4, 48, 16];
    const shape = { B, H, Tq: T, dh, cap: T, qOffset: 0 };
    const n = B * H * T * dh;
    const [q, k, v, dout] = [1, 2, 3, 4].map((s) => filled(n, s));
    const start = be.alloc(B, 'i32');
    (be.view(start) as Int32Array).set(Array.from({ length: B }, (_, i) => i % 5));
    const [out, dq, dk, dv] = [0, 1, 2, 3].map(() => be.alloc(n));
    const probs = be.alloc(B * H * T * T);
    const [one, pooled] = await oneAndPooled(3, () => {
      be.run(attentionForwardKernel, { ...shape, storeProbs: true }, [q, k, v, start, out, probs]);
      be.run(attentionBackwardQKernel, shape, [k, v, probs, out, dout, dq]);
      be.run(attentionBackwardKVKernel, shape, [q, v, probs, out, dout, dk, dv]);
      return [out, probs, dq, dk, dv];
    });
    one.forEach((o, i) => expect(bits(pooled[i])).toEqual(bits(o)));
  });
});
