// The WebAssembly memory the CPU backend's SIMD kernels (WAT, ./*.ts) work in. A kernel copies
// its operands in, runs, and copies its outputs back: the copies cost a small part of what SIMD
// saves on these kernels, and the tensors stay plain typed arrays.
import type { NumArray } from '../../backend.ts';
import { assembleWat } from '../wat.ts';

const memory = typeof WebAssembly === 'object' ? new WebAssembly.Memory({ initial: 16 }) : null;
let f32 = memory ? new Float32Array(memory.buffer) : new Float32Array(0);
let i32 = memory ? new Int32Array(memory.buffer) : new Int32Array(0);

/**
 * The exports of a WAT module over the shared memory, or null where WebAssembly, its SIMD or
 * relaxed SIMD is missing (or a Content-Security-Policy forbids compiling): the caller then runs
 * the reference twin.
 */
export function instantiate<T>(wat: string): T | null {
  if (!memory) return null;
  try {
    const bytes = assembleWat(wat);
    if (!WebAssembly.validate(bytes)) return null;
    const module = new WebAssembly.Module(bytes);
    return new WebAssembly.Instance(module, { env: { memory } }).exports as T;
  } catch {
    return null;
  }
}

/**
 * Byte addresses of consecutive regions of these element counts (16-byte aligned, each padded to
 * whole vectors), the memory grown to hold them. Views from f32View() taken before are stale.
 */
export function regions(...counts: number[]): number[] {
  const at: number[] = [];
  let end = 0;
  for (const n of counts) {
    at.push(end);
    end += 16 * Math.ceil(n / 4);
  }
  if (memory && end > memory.buffer.byteLength) {
    memory.grow(Math.ceil((end - memory.buffer.byteLength) / 65536));
    f32 = new Float32Array(memory.buffer);
    i32 = new Int32Array(memory.buffer);
  }
  return at;
}

export function f32View(): Float32Array {
  return f32;
}

/** n elements of `src` (from `from`) into the memory at byte address `at`. */
export function put(at: number, src: NumArray, n: number, from = 0): void {
  const view = src instanceof Float32Array ? f32 : i32;
  if (src instanceof Float32Array || src instanceof Int32Array) {
    view.set(src.subarray(from, from + n), at >> 2);
  } else {
    for (let k = 0; k < n; k++) view[(at >> 2) + k] = src[from + k];
  }
}

/** n elements from the memory at byte address `at` into `dst` (from `to`). */
export function take(at: number, dst: NumArray, n: number, to = 0): void {
  if (dst instanceof Float32Array) dst.set(f32.subarray(at >> 2, (at >> 2) + n), to);
  else for (let k = 0; k < n; k++) dst[to + k] = f32[(at >> 2) + k];
}

/** n zeros at byte address `at`. */
export function zero(at: number, n: number): void {
  f32.fill(0, at >> 2, (at >> 2) + n);
}

/** Whether this runtime has relaxed SIMD (the kernels' fused multiply-add). */
export function hasRelaxedSimd(): boolean {
  return (
    instantiate(`(func $f (param $a v128) (result v128)
      local.get $a local.get $a local.get $a f32x4.relaxed_madd)`) !== null
  );
}
