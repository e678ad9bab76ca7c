import type { NumArray } from '../backend.ts';
import { matmulSimd } from './gemm-simd.ts';

/** A strided matrix view: element (r, c) is data[offset + r·rowStride + c·colStride]. */
export interface MatView {
  data: NumArray;
  offset: number;
  rowStride: number;
  colStride: number;
}

/** A row-major matrix: element (r, c) is data[offset + r·rowStride + c]. */
export interface OutView {
  data: NumArray;
  offset: number;
  rowStride: number;
}

type Packed = Float32Array | Float64Array;

// Packed operands keep their input precision: float32 in training without SIMD (half the memory
// traffic of float64, ~1.4× faster), float64 when the float64 reference backend runs finite
// differences.
let a32 = new Float32Array(0);
let b32 = new Float32Array(0);
let a64 = new Float64Array(0);
let b64 = new Float64Array(0);
let block = new Float64Array(0);

function grow<T extends Float32Array | Float64Array>(buf: T, n: number): T {
  return buf.length >= n
    ? buf
    : new (buf.constructor as { new (n: number): T })(Math.max(n, 2 * buf.length));
}

/** Copy rows×K of a view into a dense row-major block (K contiguous). */
function pack(dst: Packed, v: MatView, rows: number, K: number): void {
  for (let r = 0; r < rows; r++) {
    const src = v.offset + r * v.rowStride;
    const d = r * K;
    if (v.colStride === 1) for (let k = 0; k < K; k++) dst[d + k] = v.data[src + k];
    else for (let k = 0; k < K; k++) dst[d + k] = v.data[src + k * v.colStride];
  }
}

/**
 * out[i·N + j] = Σ_k A(i, k)·B(j, k) in float64, for any strides of A [M,K] and B [N,K]: the
 * reference GEMM, and the fallback where WebAssembly SIMD is missing (gemm-simd.ts is ~8× faster).
 * Both operands are first packed so K is contiguous, then 4×4 output blocks are accumulated in
 * registers: about 3–4× the speed of a naive loop in V8.
 */
export function gemmInto(
  out: Float64Array,
  A: MatView,
  B: MatView,
  M: number,
  N: number,
  K: number,
): void {
  if (A.data instanceof Float64Array || B.data instanceof Float64Array) {
    a64 = grow(a64, M * K);
    b64 = grow(b64, N * K);
    pack(a64, A, M, K);
    pack(b64, B, N, K);
    blockedDot(out, a64, b64, M, N, K);
  } else {
    a32 = grow(a32, M * K);
    b32 = grow(b32, N * K);
    pack(a32, A, M, K);
    pack(b32, B, N, K);
    blockedDot(out, a32, b32, M, N, K);
  }
}

/** out = a·bᵀ for dense row-major a [M,K], b [N,K]; 4×4 register blocks, then the edges. */
function blockedDot(
  out: Float64Array,
  a: Packed,
  b: Packed,
  M: number,
  N: number,
  K: number,
): void {
  const M4 = M - (M % 4);
  const N4 = N - (N % 4);
  for (let i = 0; i < M4; i += 4) {
    const a0 = i * K;
    const a1 = a0 + K;
    const a2 = a1 + K;
    const a3 = a2 + K;
    for (let j = 0; j < N4; j += 4) {
      const b0 = j * K;
      const b1 = b0 + K;
      const b2 = b1 + K;
      const b3 = b2 + K;
      let c00 = 0, c01 = 0, c02 = 0, c03 = 0, c10 = 0, c11 = 0, c12 = 0, c13 = 0; // prettier-ignore
      let c20 = 0, c21 = 0, c22 = 0, c23 = 0, c30 = 0, c31 = 0, c32 = 0, c33 = 0; // prettier-ignore
      for (let k = 0; k < K; k++) {
        const y0 = b[b0 + k];
        const y1 = b[b1 + k];
        const y2 = b[b2 + k];
        const y3 = b[b3 + k];
        let x = a[a0 + k];
        c00 += x * y0;
        c01 += x * y1;
        c02 += x * y2;
        c03 += x * y3; // prettier-ignore
        x = a[a1 + k];
        c10 += x * y0;
        c11 += x * y1;
        c12 += x * y2;
        c13 += x * y3; // prettier-ignore
        x = a[a2 + k];
        c20 += x * y0;
        c21 += x * y1;
        c22 += x * y2;
        c23 += x * y3; // prettier-ignore
        x = a[a3 + k];
        c30 += x * y0;
        c31 += x * y1;
        c32 += x * y2;
        c33 += x * y3; // prettier-ignore
      }
      let c = i * N + j;
      out[c] = c00;
      out[c + 1] = c01;
      out[c + 2] = c02;
      out[c + 3] = c03; // prettier-ignore
      c += N;
      out[c] = c10;
      out[c + 1] = c11;
      out[c + 2] = c12;
      out[c + 3] = c13; // prettier-ignore
      c += N;
      out[c] = c20;
      out[c + 1] = c21;
      out[c + 2] = c22;
      out[c + 3] = c23; // prettier-ignore
      c += N;
      out[c] = c30;
      out[c + 1] = c31;
      out[c + 2] = c32;
      out[c + 3] = c33; // prettier-ignore
    }
  }
  // Edges: rows past M4 against every column, and columns past N4 for the blocked rows.
  const dot = (i: number, j: number) => {
    let s = 0;
    const ai = i * K;
    const bj = j * K;
    for (let k = 0; k < K; k++) s += a[ai + k] * b[bj + k];
    out[i * N + j] = s;
  };
  for (let i = M4; i < M; i++) for (let j = 0; j < N; j++) dot(i, j);
  for (let i = 0; i < M4; i++) for (let j = N4; j < N; j++) dot(i, j);
}

const isF32 = <V extends { data: NumArray }>(v: V): v is V & { data: Float32Array } =>
  v.data instanceof Float32Array;

/**
 * matmul's CPU twin for one batch item: C = A·Bᵀ (+ bias) (+ C when accumulating), for views
 * A [M,K], B [N,K] and a row-major C. Float32 tensors take WebAssembly SIMD where it exists (f32
 * sums, then bias and C added in f32, as on the GPU; several times faster). Float64 ones (the
 * finite-difference reference) and machines without SIMD take gemmInto's float64 sums, with bias
 * and C added before the one rounding to the output.
 */
export function matmulInto(
  C: OutView,
  A: MatView,
  B: MatView,
  M: number,
  N: number,
  K: number,
  bias: NumArray | null,
  accumulate: boolean,
): void {
  const f32Bias = bias === null || bias instanceof Float32Array;
  if (matmulSimd && isF32(C) && isF32(A) && isF32(B) && f32Bias) {
    if (matmulSimd(C, A, B, M, N, K, bias, accumulate)) return;
  }
  block = grow(block, M * N);
  gemmInto(block, A, B, M, N, K);
  const { data, offset, rowStride } = C;
  for (let i = 0; i < M; i++) {
    const ci = offset + i * rowStride;
    for (let j = 0; j < N; j++) {
      let v = block[i * N + j];
      if (bias) v += bias[j];
      if (accumulate) v += data[ci + j];
      data[ci + j] = v;
    }
  }
}
