import type { MatView, OutView } from './gemm.ts';
import {
  bind,
  f32View,
  heapBuffer,
  instantiate as instantiateWat,
  instantiateBinary,
} from './fast/heap.ts';
import { ADD_BIAS, ADD_C, FIRST_PASS, gemmModule } from './gemm-wasm.ts';
import { parallel, splitRange } from './threads/thread-pool.ts';

/** 3×16 tiles: 12 accumulators, and N (a multiple of 16 in every model) needs no padding. */
const TILE = { MR: 3, NV: 4, KU: 4, fma: true };
const NR = 4 * TILE.NV;
/** Longest pass over K: longer sums are split so the panels of A and B stay in cache. */
const KC = 256;
/** Rows of A per block, in bytes of one pass: A's block stays in L2 across B's panels. */
const BLOCK_BYTES = 1 << 17;

export type F32View = MatView & { data: Float32Array };
export type F32Out = OutView & { data: Float32Array };

type Kernel = (
  a: number,
  aR: number,
  aK: number,
  b: number,
  bK: number,
  c: number,
  M: number,
  N: number,
  K: number,
  MC: number,
  flags: number,
  bias: number,
  c0: number,
) => void;

const roundUp = (n: number, m: number) => Math.ceil(n / m) * m;

/** Elements from a view's first to its last, or Infinity when neither of its axes is dense. */
function extent(v: MatView, rows: number, K: number): number {
  if (v.rowStride !== 1 && v.colStride !== 1) return Infinity;
  return (rows - 1) * v.rowStride + (K - 1) * v.colStride + 1;
}

/** rows×K of a view, row-major and dense, at element `at`. */
function packRows(f32: Float32Array, at: number, v: F32View, rows: number, K: number): void {
  for (let r = 0; r < rows; r++) {
    const s = v.offset + r * v.rowStride;
    const d = at + r * K;
    for (let k = 0; k < K; k++) f32[d + k] = v.data[s + k * v.colStride];
  }
}

/** N×K of a view, transposed to [K][Np] so that its rows become adjacent columns. */
function packCols(f32: Float32Array, at: number, v: F32View, N: number, K: number, Np: number) {
  const { data, offset, rowStride, colStride } = v;
  // Four rows of the view at a time: each k writes four adjacent floats.
  let j = 0;
  for (; j + 4 <= N; j += 4) {
    const s0 = offset + j * rowStride;
    const [s1, s2, s3] = [s0 + rowStride, s0 + 2 * rowStride, s0 + 3 * rowStride];
    for (let k = 0, d = at + j, o = 0; k < K; k++, d += Np, o += colStride) {
      f32[d] = data[s0 + o];
      f32[d + 1] = data[s1 + o];
      f32[d + 2] = data[s2 + o];
      f32[d + 3] = data[s3 + o];
    }
  }
  for (; j < N; j++) {
    const s = offset + j * rowStride;
    for (let k = 0; k < K; k++) f32[at + k * Np + j] = data[s + k * colStride];
  }
}

/**
 * packCols in WebAssembly, for a view on the heap: rows [0, n) of the view at byte address src
 * (rows rowBytes apart, columns colBytes) to columns of [K][Np] at dst (its rows npBytes apart).
 * Each row of the view is a column of the result, so the pool's threads may take rows apart; in
 * a GRPO step's decoding the weights are packed anew for every token, so this is on its path.
 */
const packModule = instantiateWat<{
  packCols(
    src: number,
    rowBytes: number,
    colBytes: number,
    dst: number,
    n: number,
    k: number,
    npBytes: number,
  ): void;
}>(`
(func $packCols (param $src i32) (param $rowBytes i32) (param $colBytes i32) (param $dst i32)
  (param $n i32) (param $k i32) (param $npBytes i32)
  (local $j i32) (local $kk i32) (local $p i32) (local $q i32)
  block $rowsDone loop $row
    local.get $j local.get $n i32.ge_u br_if $rowsDone
    local.get $src local.get $j local.get $rowBytes i32.mul i32.add local.set $p
    local.get $dst local.get $j i32.const 2 i32.shl i32.add local.set $q
    i32.const 0 local.set $kk
    block $colsDone loop $col
      local.get $kk local.get $k i32.ge_u br_if $colsDone
      local.get $q local.get $p f32.load f32.store
      local.get $p local.get $colBytes i32.add local.set $p
      local.get $q local.get $npBytes i32.add local.set $q
      local.get $kk i32.const 1 i32.add local.set $kk
      br $col
    end end
    local.get $j i32.const 1 i32.add local.set $j
    br $row
  end end)`);

function copy(f32: Float32Array, at: number, v: F32View, n: number): void {
  f32.set(v.data.subarray(v.offset, v.offset + n), at);
}

/** rows×cols from src (row stride sStride) to dst (dStride): one copy when both are dense. */
function copyRows(
  dst: Float32Array,
  dOff: number,
  dStride: number,
  src: Float32Array,
  sOff: number,
  sStride: number,
  rows: number,
  cols: number,
): void {
  if (dStride === cols && sStride === cols) {
    dst.set(src.subarray(sOff, sOff + rows * cols), dOff);
    return;
  }
  for (let r = 0; r < rows; r++) {
    const s = sOff + r * sStride;
    dst.set(src.subarray(s, s + cols), dOff + r * dStride);
  }
}

/**
 * The kernel for A of any layout and the one for row-major A; with fused multiply-add where the
 * runtime has relaxed SIMD, else plain SIMD; null without SIMD.
 */
function instantiate(): { any: Kernel; rows: Kernel } | null {
  const build = (fma: boolean) => {
    const any = instantiateBinary<{ gemm: Kernel }>(gemmModule({ ...TILE, fma }));
    const rows = instantiateBinary<{ gemm: Kernel }>(gemmModule({ ...TILE, fma, aRows: true }));
    return any && rows ? { any: any.gemm, rows: rows.gemm } : null;
  };
  return build(true) ?? build(false);
}

/**
 * matmul's product for float32 views: C = A·Bᵀ (+ bias) (+ C when accumulating), A [M,K],
 * B [N,K], C row-major. Products and sums are f32, then bias and C are added in that order, as
 * on the GPU. Operands on the CPU backend's heap are read where they lie when one of their axes
 * is dense (the model's layouts), and C is written in place when dense; the rest is copied or
 * packed into scratch. False, having written nothing, when scratch does not fit in memory.
 */
export type SimdMatmul = (
  C: F32Out,
  A: F32View,
  B: F32View,
  M: number,
  N: number,
  K: number,
  bias: Float32Array | null,
  accumulate: boolean,
) => boolean;

/** Where an array lies: its byte address on the heap (null off it), kept across memory growth. */
function pin(data: Float32Array) {
  const onHeap = data.buffer === heapBuffer();
  const { byteOffset, length } = data;
  return {
    at: onHeap ? byteOffset : null,
    /** The array itself, or a fresh view of it when the heap grew under it. */
    live: () => (onHeap ? new Float32Array(f32View().buffer, byteOffset, length) : data),
  };
}

function create(): SimdMatmul | null {
  const kernels = instantiate();
  if (!kernels) return null;
  const { MR } = TILE;
  return (C, A, B, M, N, K, bias, accumulate) => {
    const Mp = roundUp(M, MR);
    const Np = roundUp(N, NR);
    const [pa, pb, pc] = [pin(A.data), pin(B.data), pin(C.data)];
    const pBias = bias ? pin(bias) : null;
    // A where it lies when rows or columns are adjacent, else packed row-major.
    const aDirect = extent(A, M, K) <= 2 * M * K;
    const aR = aDirect ? A.rowStride : K;
    const aK = aDirect ? A.colStride : 1;
    const kernel = aK === 1 ? kernels.rows : kernels.any;
    // B's rows must be adjacent (they are C's columns): where it lies, else transposed to [K][Np].
    const bDirect = B.rowStride === 1 && extent(B, N, K) <= 2 * N * K;
    const bK = bDirect ? B.colStride : Np;
    // C in place for its whole tiles of rows when dense and a whole number of column tiles wide.
    const cInPlace = pc.at !== null && C.rowStride === N && Np === N;
    const Mfull = cInPlace ? M - (M % MR) : 0;
    const passes = Math.ceil(K / KC);
    // Accumulating in place over several passes: the first pass overwrites the C to be added.
    const c0Copy = accumulate && cInPlace && passes > 1 ? Mfull * N : 0;
    const tailRows = Mp - Mfull;
    const aHere = aDirect && pa.at !== null;
    const bHere = bDirect && pb.at !== null;
    // Padding rows and columns read past the data: scratch copies keep that inside them.
    let io;
    try {
      io = bind(
        [],
        aHere ? 0 : aDirect ? (Mp - 1) * aR + (K - 1) * aK + 1 : Mp * K,
        bHere ? 0 : bDirect ? (K - 1) * bK + Np : K * Np,
        pBias && pBias.at === null ? Np : 0,
        tailRows * Np,
        accumulate ? tailRows * Np : 0,
        c0Copy,
      );
    } catch {
      return false; // no room for scratch: the float64 path needs none
    }
    const [aS, bS, biasS, cS, c0S, c0Full] = io.scratch;
    const f32 = f32View();
    const a0 = aHere ? pa.at! + 4 * A.offset : aS;
    if (!aHere) {
      const a = { ...A, data: pa.live() };
      if (aDirect) copy(f32, aS >> 2, a, extent(A, M, K));
      else packRows(f32, aS >> 2, a, M, K);
    }
    const b0 = bHere ? pb.at! + 4 * B.offset : bS;
    if (!bHere) {
      const b = { ...B, data: pb.live() };
      if (bDirect) copy(f32, bS >> 2, b, extent(B, N, K));
      else if (pb.at !== null && packModule) {
        // Rows of B are columns of the packed panel: split across the pool like C's rows.
        const src = pb.at + 4 * B.offset;
        const [rowBytes, colBytes] = [4 * B.rowStride, 4 * B.colStride];
        parallel(
          packModule.packCols,
          splitRange(N, 4, 8 * N * K).map(([j, n]) => [
            src + j * rowBytes,
            rowBytes,
            colBytes,
            bS + 4 * j,
            n,
            K,
            4 * Np,
          ]),
        );
      } else packCols(f32, bS >> 2, b, N, K, Np);
    }
    const biasAt = !pBias ? 0 : pBias.at !== null ? pBias.at : biasS;
    if (pBias && pBias.at === null) f32.set(bias!.subarray(0, N), biasS >> 2);
    const c = pc.live();
    if (c0Copy) copyRows(f32, c0Full >> 2, N, c, C.offset, N, Mfull, N);
    if (accumulate && tailRows)
      copyRows(f32, c0S >> 2, Np, c, C.offset + Mfull * C.rowStride, C.rowStride, M - Mfull, N);
    const kc = Math.ceil(K / passes);
    const MC = MR * Math.max(1, Math.floor(BLOCK_BYTES / (4 * MR * kc)));
    const epilogue = (bias ? ADD_BIAS : 0) | (accumulate ? ADD_C : 0);
    /**
     * Rows [i0, i0 + rows) of C at byte address `out` (`acc`: the C to add), every pass; each
     * pass's rows split across the thread pool in whole tiles (C's rows do not depend on each
     * other, so any split gives the same numbers).
     */
    const run = (i0: number, rows: number, out: number, acc: number) => {
      const pieces = splitRange(rows, MR, rows * Np * K);
      for (let k0 = 0; k0 < K; k0 += kc) {
        const n = Math.min(kc, K - k0);
        const flags = (k0 === 0 ? FIRST_PASS : 0) | (k0 + n === K ? epilogue : 0);
        const a = a0 + 4 * (i0 * aR + k0 * aK);
        const b = b0 + 4 * k0 * bK;
        parallel(
          kernel,
          pieces.map(([r, m]) => {
            const c = 4 * r * Np;
            return [
              a + 4 * r * aR,
              4 * aR,
              4 * aK,
              b,
              4 * bK,
              out + c,
              m,
              Np,
              n,
              MC,
              flags,
              biasAt,
              acc + c,
            ];
          }),
        );
      }
    };
    if (Mfull > 0) {
      const cAt = pc.at! + 4 * C.offset;
      run(0, Mfull, cAt, c0Copy ? c0Full : cAt);
    }
    if (tailRows > 0) {
      run(Mfull, tailRows, cS, c0S);
      copyRows(c, C.offset + Mfull * C.rowStride, C.rowStride, f32, cS >> 2, Np, M - Mfull, N);
    }
    return true;
  };
}

/** The SIMD matmul, or null where WebAssembly or its SIMD is missing; decided once, at load. */
export const matmulSimd: SimdMatmul | null = create();
