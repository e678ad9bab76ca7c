import type { MatView, OutView } from './gemm.ts';
import { ADD_BIAS, ADD_C, FIRST_PASS, gemmModule } from './gemm-wasm.ts';

/** 3×16 tiles: 12 accumulators, and N (a multiple of 16 in every model) needs no padding. */
const TILE = { MR: 3, NV: 4, KU: 2, fma: true };
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
  for (let j = 0; j < N; j++) {
    const s = v.offset + j * v.rowStride;
    for (let k = 0; k < K; k++) f32[at + k * Np + j] = v.data[s + k * v.colStride];
  }
}

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

/** With fused multiply-add where the runtime has relaxed SIMD, else plain SIMD, else null. */
function instantiate(): { kernel: Kernel; memory: WebAssembly.Memory } | null {
  try {
    if (typeof WebAssembly !== 'object') return null;
    const bytes = [gemmModule(TILE), gemmModule({ ...TILE, fma: false })].find((b) =>
      WebAssembly.validate(b),
    );
    if (!bytes) return null;
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    return { kernel: exports.gemm as Kernel, memory: exports.memory as WebAssembly.Memory };
  } catch {
    // e.g. a Content-Security-Policy without 'wasm-unsafe-eval'
    return null;
  }
}

/**
 * matmul's product for float32 views: C = A·Bᵀ (+ bias) (+ C when accumulating), A [M,K],
 * B [N,K], C row-major. Products and sums are f32, then bias and C are added in that order, as
 * on the GPU. Operands are copied into the module's memory as they lie when one of their axes is
 * dense (the model's layouts), else packed. False, having written nothing, when they do not fit
 * in a WebAssembly memory.
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

function create(): SimdMatmul | null {
  const wasm = instantiate();
  if (!wasm) return null;
  const { kernel, memory } = wasm;
  let f32 = new Float32Array(memory.buffer);
  const { MR } = TILE;
  return (C, A, B, M, N, K, bias, accumulate) => {
    const Mp = roundUp(M, MR);
    const Np = roundUp(N, NR);
    // A in place (rows or columns adjacent), else packed row-major; sparse views are packed too.
    const aDirect = extent(A, M, K) <= 2 * M * K;
    const aR = aDirect ? A.rowStride : K;
    const aK = aDirect ? A.colStride : 1;
    // B's rows must be adjacent (they are C's columns): in place, else transposed to [K][Np].
    const bDirect = B.rowStride === 1 && extent(B, N, K) <= 2 * N * K;
    const bK = bDirect ? B.colStride : Np;
    // Padding rows and columns read past the data: keep that inside the reserved memory.
    const a = 0;
    const b = roundUp(a + (Mp - 1) * aR + (K - 1) * aK + 1, 4);
    const c = roundUp(b + (K - 1) * bK + Np, 4);
    const biasAt = c + Mp * Np;
    const c0 = biasAt + (bias ? Np : 0);
    const bytes = 4 * (c0 + (accumulate ? Mp * Np : 0));
    if (bytes > memory.buffer.byteLength) {
      try {
        memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65536));
      } catch {
        return false;
      }
      f32 = new Float32Array(memory.buffer);
    }
    if (aDirect) copy(f32, a, A, extent(A, M, K));
    else packRows(f32, a, A, M, K);
    if (bDirect) copy(f32, b, B, extent(B, N, K));
    else packCols(f32, b, B, N, K, Np);
    if (bias) f32.set(bias.subarray(0, N), biasAt);
    if (accumulate) copyRows(f32, c0, Np, C.data, C.offset, C.rowStride, M, N);
    const passes = Math.ceil(K / KC);
    const kc = Math.ceil(K / passes);
    const MC = MR * Math.max(1, Math.floor(BLOCK_BYTES / (4 * MR * kc)));
    const epilogue = (bias ? ADD_BIAS : 0) | (accumulate ? ADD_C : 0);
    for (let k0 = 0; k0 < K; k0 += kc) {
      const at = (x: number, stride: number) => 4 * (x + k0 * stride);
      const n = Math.min(kc, K - k0);
      const flags = (k0 === 0 ? FIRST_PASS : 0) | (k0 + n === K ? epilogue : 0);
      kernel(
        at(a, aK),
        4 * aR,
        4 * aK,
        at(b, bK),
        4 * bK,
        4 * c,
        Mp,
        Np,
        n,
        MC,
        flags,
        4 * biasAt,
        4 * c0,
      );
    }
    copyRows(C.data, C.offset, C.rowStride, f32, c, Np, M, N);
    return true;
  };
}

/** The SIMD matmul, or null where WebAssembly or its SIMD is missing; decided once, at load. */
export const matmulSimd: SimdMatmul | null = create();
