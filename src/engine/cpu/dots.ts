import type { NumArray } from '../backend.ts';

// Short dot products and axpys for the CPU twins, four rows at a time. A single dot is one chain
// of dependent adds; four independent ones keep the FPU busy and share the loads of `a`, for ~2×
// in V8. Every sum still runs in the order of the one-row loop, so results are bit-identical.

export function dot(a: NumArray, ao: number, b: NumArray, bo: number, n: number): number {
  let s = 0;
  for (let c = 0; c < n; c++) s += a[ao + c] * b[bo + c];
  return s;
}

/** acc[c] += w·b[bo + c]. */
export function axpy(acc: Float64Array, w: number, b: NumArray, bo: number, n: number): void {
  for (let c = 0; c < n; c++) acc[c] += w * b[bo + c];
}

/** out[u] = Σ_c a[ao + c]·b[bo + u·stride + c] for u = 0..3. */
export function dots4(
  out: Float64Array,
  a: NumArray,
  ao: number,
  b: NumArray,
  bo: number,
  stride: number,
  n: number,
): void {
  const b1 = bo + stride;
  const b2 = b1 + stride;
  const b3 = b2 + stride;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let c = 0; c < n; c++) {
    const x = a[ao + c];
    s0 += x * b[bo + c];
    s1 += x * b[b1 + c];
    s2 += x * b[b2 + c];
    s3 += x * b[b3 + c];
  }
  out[0] = s0;
  out[1] = s1;
  out[2] = s2;
  out[3] = s3;
}

/** acc[c] += w0·b[bo + c], then w1·b[bo + stride + c], … w3: four axpys in one pass. */
export function axpy4(
  acc: Float64Array,
  w0: number,
  w1: number,
  w2: number,
  w3: number,
  b: NumArray,
  bo: number,
  stride: number,
  n: number,
): void {
  const b1 = bo + stride;
  const b2 = b1 + stride;
  const b3 = b2 + stride;
  for (let c = 0; c < n; c++) {
    acc[c] = acc[c] + w0 * b[bo + c] + w1 * b[b1 + c] + w2 * b[b2 + c] + w3 * b[b3 + c];
  }
}
