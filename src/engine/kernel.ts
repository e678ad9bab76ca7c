import type { NumArray, Tensor } from './backend.ts';
import { BackendError } from './errors.ts';

/** One 4-byte field of a kernel's uniform block, in declaration order. */
export type UniformField = readonly ['u32' | 'i32' | 'f32', number];

/**
 * One compute kernel, described once for both backends: the WGSL entry point and its CPU twin.
 * Binding convention: `@binding(0)` is the uniform block (fields from `uniforms`, each 4 bytes,
 * in order); storage buffers follow at bindings 1..n in the order of `access`.
 */
export interface Kernel<P> {
  /** Unique name; part of the pipeline cache key. */
  readonly name: string;
  /** WGSL source of the layer's file. */
  readonly shader: string;
  readonly entry: string;
  /** Access of each storage binding, in binding order. */
  readonly access: readonly ('read' | 'write')[];
  uniforms(p: P): readonly UniformField[];
  /** Pipeline-overridable constants; each distinct set is its own cached pipeline. */
  constants?(p: P): Record<string, number>;
  /** Workgroup counts (x, y, z) for a dispatch. */
  workgroups(p: P): readonly [number, number, number];
  /** The reference twin, run on host arrays in binding order. */
  cpu(p: P, arrays: NumArray[]): void;
  /**
   * The CPU backend's fast path (WebAssembly SIMD, cpu/fast/), on the same arrays; false, having
   * written nothing, where it cannot run (no SIMD, float64 arrays), and the twin runs instead.
   */
  cpuFast?(p: P, arrays: NumArray[]): boolean;
}

/** Largest workgroup count per dimension that WebGPU guarantees. */
export const MAX_WORKGROUPS_PER_DIM = 65535;

/**
 * Spread `count` workgroups over x and y so neither exceeds the per-dimension limit. Shaders
 * recover the flat index as `wg.x + wg.y * num_workgroups.x`.
 */
export function grid(count: number): readonly [number, number, number] {
  const n = Math.max(1, Math.ceil(count));
  if (n <= MAX_WORKGROUPS_PER_DIM) return [n, 1, 1];
  const y = Math.ceil(n / MAX_WORKGROUPS_PER_DIM);
  return [Math.ceil(n / y), y, 1];
}

/** Every tensor holds at least `n` elements; otherwise an error naming the op and the tensor. */
export function requireElements(op: string, n: number, ...tensors: readonly Tensor[]): void {
  for (const t of tensors)
    if (t.size < n)
      throw new BackendError(`${op}: "${t.label}" has ${t.size} elements, needs ${n}`);
}
