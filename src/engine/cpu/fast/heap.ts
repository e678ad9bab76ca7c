// The WebAssembly memory the CPU backend keeps its tensors in and its SIMD kernels (WAT, ./*.ts)
// work in. A kernel reads and writes heap tensors in place; arrays from elsewhere (a test's, or
// float64 ones, which never reach a fast path) are copied into scratch and back.
import type { DType, NumArray } from '../../backend.ts';
import { assembleWat } from '../wat.ts';
import { SHARED_MAX_PAGES, withSharedMemory } from '../wasm-writer.ts';

/**
 * Shared where this realm may share memory (Node; a cross-origin isolated page), so that the
 * thread pool (../threads/) can run a kernel's rows on other threads over the same tensors;
 * otherwise, or where the engine refuses a shared memory, a plain one as before.
 */
function makeMemory(): WebAssembly.Memory | null {
  if (typeof WebAssembly !== 'object') return null;
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  if (typeof SharedArrayBuffer === 'function' && isolated !== false) {
    try {
      return new WebAssembly.Memory({ initial: 64, maximum: SHARED_MAX_PAGES, shared: true });
    } catch {
      // fall through: a plain memory, one thread
    }
  }
  return new WebAssembly.Memory({ initial: 64 });
}

const memory = makeMemory();
const shared =
  typeof SharedArrayBuffer === 'function' && memory?.buffer instanceof SharedArrayBuffer;
let f32 = memory ? new Float32Array(memory.buffer) : new Float32Array(0);
let i32 = memory ? new Int32Array(memory.buffer) : new Int32Array(0);

/** The heap's memory where it is shared (the pool's threads import it), else null. */
export function sharedHeap(): WebAssembly.Memory | null {
  return shared ? memory : null;
}

/**
 * Every module instantiated over the heap, as compiled (the pool's threads compile the same
 * bytes), and, for each exported function, its module and its place among the exports: what a
 * thread calls.
 */
export const heapModules: Uint8Array<ArrayBuffer>[] = [];
const exportOrigin = new WeakMap<object, { module: number; index: number }>();

/**
 * Which module a function instantiated here is of, and its place among the module's exports
 * (a thread's instance lists them in the same order), or undefined for any other function.
 */
export function originOf(fn: object): { module: number; index: number } | undefined {
  return exportOrigin.get(fn);
}

/**
 * The exports of a WAT module over the shared memory, or null where WebAssembly, its SIMD or
 * relaxed SIMD is missing (or a Content-Security-Policy forbids compiling): the caller then runs
 * the reference twin.
 */
export function instantiate<T>(wat: string): T | null {
  try {
    return instantiateBinary<T>(assembleWat(wat));
  } catch {
    return null;
  }
}

/** The exports of an assembled module that imports `env.memory`, or null as for instantiate. */
export function instantiateBinary<T>(plain: Uint8Array<ArrayBuffer>): T | null {
  if (!memory) return null;
  try {
    const bytes = shared ? withSharedMemory(plain) : plain;
    if (!WebAssembly.validate(bytes)) return null;
    const module = new WebAssembly.Module(bytes);
    const exports = new WebAssembly.Instance(module, { env: { memory } }).exports;
    const id = heapModules.push(bytes) - 1;
    Object.values(exports).forEach((value, index) => {
      if (typeof value === 'function') exportOrigin.set(value, { module: id, index });
    });
    return exports as T;
  } catch {
    return null;
  }
}

/** Whether this runtime has relaxed SIMD (the kernels' fused multiply-add). */
export function hasRelaxedSimd(): boolean {
  return (
    instantiate(`(func $f (param $a v128) (result v128)
      local.get $a local.get $a local.get $a f32x4.relaxed_madd)`) !== null
  );
}

// ---------------------------------------------------------------- allocation

/** Free blocks by size in bytes: tensors of a shape come and go together, so sizes recur. */
const freeBlocks = new Map<number, number[]>();
/** Where the next new block starts; the first 64 bytes stay unused (address 0 is no tensor). */
let top = 64;
/** The scratch block: one, grown as kernels need, reused by every call. */
let scratch = { at: 0, bytes: 0 };

function grow(end: number): void {
  if (!memory || end <= memory.buffer.byteLength) return;
  memory.grow(Math.ceil((end - memory.buffer.byteLength) / 65536));
  f32 = new Float32Array(memory.buffer);
  i32 = new Int32Array(memory.buffer);
}

const blockBytes = (n: number) => 16 * Math.ceil(Math.max(1, n) / 4);

/** A block for n 4-byte elements, 16-byte aligned; null without WebAssembly or past 4 GiB. */
export function allocBlock(n: number): number | null {
  if (!memory) return null;
  const bytes = blockBytes(n);
  const reused = freeBlocks.get(bytes)?.pop();
  if (reused !== undefined) return reused;
  if (top + bytes > 2 ** 32 - 65536) return null;
  try {
    grow(top + bytes);
  } catch {
    return null; // the engine may not give more memory
  }
  const at = top;
  top += bytes;
  return at;
}

export function freeBlock(at: number, n: number): void {
  const bytes = blockBytes(n);
  const list = freeBlocks.get(bytes) ?? [];
  list.push(at);
  freeBlocks.set(bytes, list);
}

/** The live view of a block: views taken before the memory grew are detached, so ask each time. */
export function blockView(at: number, n: number, dtype: DType): NumArray {
  if (!memory) throw new Error('no WebAssembly memory');
  const Ctor = dtype === 'f32' ? Float32Array : dtype === 'u32' ? Uint32Array : Int32Array;
  return new Ctor(memory.buffer, at, n);
}

export function heapBuffer(): ArrayBuffer | null {
  return memory?.buffer ?? null;
}

// ---------------------------------------------------------------- kernel operands

/** How a kernel uses an operand: read, written, or both. */
export const IN = 1;
export const OUT = 2;
export const INOUT = 3;

export interface Operand {
  array: NumArray;
  /** Elements the kernel touches, from the array's start. */
  n: number;
  use: typeof IN | typeof OUT | typeof INOUT;
}

/**
 * Byte addresses for a kernel call: heap arrays where they lie, others copied into scratch (and
 * `extra` scratch regions of these element counts after them). Call `done()` after the kernel:
 * it copies outputs that are not on the heap back. Addresses are taken before scratch can grow
 * the memory, so they stay valid.
 */
export function bind(
  operands: readonly Operand[],
  ...extra: number[]
): { at: number[]; scratch: number[]; done(): void } {
  const heap = memory?.buffer;
  const inHeap = operands.map((o) => (o.array.buffer === heap ? o.array.byteOffset : null));
  const counts = [...operands.map((o, i) => (inHeap[i] === null ? o.n : 0)), ...extra];
  const bytes = counts.reduce((s, n) => s + (n > 0 ? blockBytes(n) : 0), 0);
  if (bytes > scratch.bytes) {
    if (scratch.bytes) freeBlock(scratch.at, scratch.bytes / 4);
    const at = allocBlock(bytes / 4);
    if (at === null) throw new Error('the WebAssembly memory is full');
    scratch = { at, bytes };
  }
  let next = scratch.at;
  const regions = counts.map((n) => {
    const at = next;
    if (n > 0) next += blockBytes(n);
    return at;
  });
  const at = operands.map((o, i) => {
    const address = inHeap[i];
    if (address !== null) return address;
    if (o.use & IN) put(regions[i], o.array, o.n);
    return regions[i];
  });
  return {
    at,
    scratch: regions.slice(operands.length),
    done() {
      operands.forEach((o, i) => {
        if (inHeap[i] === null && o.use & OUT) take(at[i], o.array, o.n);
      });
    },
  };
}

export function f32View(): Float32Array {
  return f32;
}

/** n elements of `src` (from `from`) into the memory at byte address `at`. */
export function put(at: number, src: NumArray, n: number, from = 0): void {
  if (src instanceof Float32Array) f32.set(src.subarray(from, from + n), at >> 2);
  else for (let k = 0; k < n; k++) i32[(at >> 2) + k] = src[from + k];
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
