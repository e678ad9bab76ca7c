import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { matmul, type MatmulParams } from '../kernels/matmul.ts';
import { uniforms } from '../random.ts';
import { compare } from '../selfcheck/compare.ts';
import { CpuBackend } from './cpu-backend.ts';
import { allocBlock, blockView, freeBlock } from './fast/heap.ts';
import { gemmInto, matmulInto, type MatView } from './gemm.ts';
import { matmulSimd, type F32View } from './gemm-simd.ts';

const TOL = { atol: 1e-5, rtol: 1e-4 };
/**
 * f32 sums of K products of values in [−1, 1] drift from the float64 reference by about √K
 * roundings: a fixed 1e-5 was missed now and then at K = 513 (by up to 1.2×, where a sum comes
 * out near zero), so the absolute part grows with √K past K = 64.
 */
const tolFor = (K: number) => ({ ...TOL, atol: TOL.atol * Math.max(1, Math.sqrt(K / 64)) });

interface Layout {
  /** A stored K-major (matmul's transA), B stored K-contiguous (matmul's transB). */
  transA: boolean;
  transB: boolean;
  /** Extra elements per stored row (C's too), and before the first element. */
  pad: number;
  offset: number;
}

let seed = 1;
const random = (n: number) => uniforms(seed++, n, -1, 1);
/** Multiples of 1/8 in [-1, 1]: every sum of K ≤ 2¹⁶ products is exact in f32, in any order. */
const eighths = (n: number) => random(n).map((x) => Math.round(8 * x) / 8);

/** One product to compute: operands as matmul lays them out, over arrays filled by `fill`. */
function problem(
  M: number,
  N: number,
  K: number,
  l: Layout,
  fill: (n: number) => Float32Array,
  epilogue = { bias: false, accumulate: false },
) {
  const view = (rows: number, k: number, kContiguous: boolean): F32View => {
    const ld = (kContiguous ? k : rows) + l.pad;
    const data = fill(l.offset + (kContiguous ? rows : k) * ld);
    return kContiguous
      ? { data, offset: l.offset, rowStride: ld, colStride: 1 }
      : { data, offset: l.offset, rowStride: 1, colStride: ld };
  };
  const ldc = N + l.pad;
  return {
    M,
    N,
    K,
    A: view(M, K, !l.transA),
    B: view(N, K, l.transB),
    bias: epilogue.bias ? fill(N) : null,
    accumulate: epilogue.accumulate,
    C: { data: fill(l.offset + M * ldc), offset: l.offset, rowStride: ldc },
  };
}
type Problem = ReturnType<typeof problem>;

/** C's M×N block, dense. */
function block(p: Problem, C: { data: ArrayLike<number> }): Float64Array {
  const out = new Float64Array(p.M * p.N);
  for (let i = 0; i < p.M; i++)
    for (let j = 0; j < p.N; j++) out[i * p.N + j] = C.data[p.C.offset + i * p.C.rowStride + j];
  return out;
}

/** The float64 JS GEMM, then bias and C, without rounding to f32. */
function reference(p: Problem): Float64Array {
  const sums = new Float64Array(p.M * p.N);
  gemmInto(sums, p.A, p.B, p.M, p.N, p.K);
  const c = block(p, p.C);
  return sums.map((s, at) => s + (p.bias?.[at % p.N] ?? 0) + (p.accumulate ? c[at] : 0));
}

/** Arrays on the CPU backend's heap, as its tensors are (freed after each test). */
const heapBlocks = new Map<Float32Array, { at: number; n: number }>();
function heapArray(n: number): Float32Array {
  const at = allocBlock(Math.max(1, n));
  if (at === null) throw new Error('no heap');
  const a = (blockView(at, n, 'f32') as Float32Array).fill(0);
  heapBlocks.set(a, { at, n });
  return a;
}
/** A heap array's view now: views taken before the memory grew are detached. */
function live(a: Float32Array): Float32Array {
  const b = heapBlocks.get(a);
  if (!b) return a;
  const fresh = blockView(b.at, b.n, 'f32') as Float32Array;
  heapBlocks.set(fresh, b);
  return fresh;
}
afterEach(() => {
  // Fresh views share their block: free each block once.
  const blocks = new Map([...heapBlocks.values()].map((b) => [b.at, b.n]));
  for (const [at, n] of blocks) freeBlock(at, n);
  heapBlocks.clear();
});

/** A copy of `data` in the same place: the heap when it lies there (C is then written in place). */
function copyOf(data: Float32Array): Float32Array {
  if (!heapBlocks.has(data)) return data.slice();
  const out = heapArray(data.length);
  out.set(live(data));
  return out;
}

function simd(p: Problem): Float64Array {
  const C = { ...p.C, data: copyOf(p.C.data) };
  for (const v of [p.A, p.B, p.C]) v.data = live(v.data);
  if (p.bias) p.bias = live(p.bias);
  C.data = live(C.data);
  if (!matmulSimd?.(C, p.A, p.B, p.M, p.N, p.K, p.bias, p.accumulate)) {
    throw new Error('the SIMD matmul did not run');
  }
  C.data = live(C.data);
  p.C.data = live(p.C.data);
  // Outside the M×N block, C is untouched.
  const outside = C.data.filter((x, at) => !Object.is(x, p.C.data[at]));
  expect(outside.length, 'changed elements').toBeLessThanOrEqual(p.M * p.N);
  return block(p, C);
}

const layouts: Layout[] = [false, true].flatMap((transA) =>
  [false, true].map((transB) => ({ transA, transB, pad: 0, offset: 0 })),
);

describe('WebAssembly SIMD matmul', () => {
  it('is available in Node', () => {
    expect(matmulSimd).not.toBeNull();
  });

  // Tiles are 3×16 and K runs in passes of ≤256: sizes around those, and tiny ones.
  const size = (edges: number[]) =>
    fc.oneof(fc.integer({ min: 1, max: 20 }), fc.constantFrom(...edges));
  it('matches the float64 JS GEMM on random shapes, layouts, strides and epilogues', () => {
    fc.assert(
      fc.property(
        size([31, 32, 33, 47, 48, 49, 64, 95, 97]),
        size([15, 16, 17, 31, 33, 48, 64, 65, 129]),
        size([2, 3, 5, 64, 255, 256, 257, 300, 513]),
        fc.record({
          transA: fc.boolean(),
          transB: fc.boolean(),
          pad: fc.constantFrom(0, 0, 1, 5),
          offset: fc.constantFrom(0, 3),
        }),
        fc.record({ bias: fc.boolean(), accumulate: fc.boolean() }),
        (M, N, K, layout, epilogue) => {
          const p = problem(M, N, K, layout, random, epilogue);
          const r = compare(simd(p), reference(p), tolFor(K));
          expect(r.pass, `M=${M} N=${N} K=${K}: worst ${r.worst} at ${r.at}`).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('works in place on heap operands (dense C a whole number of tiles wide), every epilogue', () => {
    const fromHeap = (n: number) => {
      const a = heapArray(n);
      a.set(random(n));
      return a;
    };
    fc.assert(
      fc.property(
        size([31, 32, 33, 47, 64, 97, 1024]),
        fc.constantFrom(16, 32, 48, 64, 192, 17),
        size([2, 3, 64, 255, 256, 257, 513]),
        fc.record({
          transA: fc.boolean(),
          transB: fc.boolean(),
          pad: fc.constantFrom(0, 0, 0, 1),
          offset: fc.constantFrom(0, 0, 3),
        }),
        fc.record({ bias: fc.boolean(), accumulate: fc.boolean() }),
        (M, N, K, layout, epilogue) => {
          const p = problem(M, N, K, layout, fromHeap, epilogue);
          const got = simd(p);
          for (const v of [p.A, p.B, p.C]) v.data = live(v.data);
          if (p.bias) p.bias = live(p.bias);
          const r = compare(got, reference(p), tolFor(K));
          expect(r.pass, `M=${M} N=${N} K=${K}: worst ${r.worst} at ${r.at}`).toBe(true);
        },
      ),
      { numRuns: 120 },
    );
  });

  it.each(layouts)('is exact on exactly representable sums of long K: %o', (layout) => {
    for (const [M, N, K] of [
      [37, 35, 4099],
      [64, 48, 1000],
      [5, 3, 1],
    ]) {
      const p = problem(M, N, K, layout, eighths, { bias: true, accumulate: true });
      expect(simd(p)).toEqual(reference(p));
    }
  });

  it('packs views whose axes are both strided', () => {
    const p = problem(7, 19, 33, layouts[0], random);
    const data = random(4 * 7 * 19 * 33);
    p.A = { data, offset: 1, rowStride: 2 * 33 + 1, colStride: 2 };
    p.B = { data, offset: 5, rowStride: 3, colStride: 3 * 19 + 2 };
    const r = compare(simd(p), reference(p), TOL);
    expect(r.pass, `worst ${r.worst}`).toBe(true);
  });

  it('keeps what padding reads out of the product', () => {
    // Fill the module's memory with NaN, then multiply shapes that pad every edge.
    const nan = (n: number) => new Float32Array(n).fill(NaN);
    simd(problem(200, 200, 300, layouts[3], nan, { bias: true, accumulate: true }));
    for (const layout of layouts) {
      const p = problem(5, 7, 3, layout, eighths, { bias: true, accumulate: false });
      expect(simd(p)).toEqual(reference(p));
    }
  });
});

describe('matmulInto', () => {
  it('keeps float64 tensors on the float64 JS path, unchanged', () => {
    const [M, N, K] = [9, 10, 11];
    const f64 = (n: number) => Float64Array.from(random(n));
    const A: MatView = { data: f64(M * K), offset: 0, rowStride: K, colStride: 1 };
    const B: MatView = { data: f64(N * K), offset: 0, rowStride: 1, colStride: N };
    const bias = f64(N);
    const C = { data: f64(M * N), offset: 0, rowStride: N };
    const want = new Float64Array(M * N);
    gemmInto(want, A, B, M, N, K);
    for (let at = 0; at < M * N; at++) want[at] += bias[at % N] + C.data[at];
    matmulInto(C, A, B, M, N, K, bias, true);
    expect(C.data).toEqual(want);
  });
});

describe('matmul on the CPU', () => {
  // The float64 backend keeps the JS GEMM: a reference for the f32 one, epilogue included.
  const cases: [string, MatmulParams, boolean][] = [
    ['A·Bᵀ + bias', { M: 67, N: 48, K: 33, transB: true }, true],
    ['dy·W', { M: 50, N: 33, K: 64 }, false],
    ['+= Aᵀ·B', { M: 20, N: 17, K: 300, transA: true, accumulate: true }, false],
    ['Aᵀ·Bᵀ', { M: 4, N: 5, K: 6, transA: true, transB: true }, false],
    [
      'batched, padded strides',
      {
        ...{ M: 5, N: 18, K: 7, batch: 3, lda: 9, ldb: 20, ldc: 21 },
        ...{ strideA: 50, strideB: 150, strideC: 110, accumulate: true },
      },
      true,
    ],
  ];
  it.each(cases)('%s', async (_, p, bias) => {
    const batch = p.batch ?? 1;
    const sizes = {
      a: batch * (p.strideA ?? p.M * p.K),
      b: batch * (p.strideB ?? p.K * p.N),
      c: batch * (p.strideC ?? (p.ldc ?? p.N) * p.M),
    };
    const inputs = {
      a: random(sizes.a),
      b: random(sizes.b),
      c: random(sizes.c),
      bias: random(p.N),
    };
    const run = async (be: CpuBackend) => {
      const t = {
        a: be.alloc(sizes.a),
        b: be.alloc(sizes.b),
        c: be.alloc(sizes.c),
        bias: be.alloc(p.N),
      };
      for (const k of ['a', 'b', 'c', 'bias'] as const) be.write(t[k], inputs[k]);
      matmul(be, t.c, t.a, t.b, p, bias ? t.bias : undefined);
      return be.read(t.c);
    };
    const r = compare(
      await run(new CpuBackend()),
      await run(new CpuBackend({ float64: true })),
      TOL,
    );
    expect(r.pass, `worst ${r.worst} at ${r.at}`).toBe(true);
  });
});
