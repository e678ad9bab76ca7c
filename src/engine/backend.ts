import type { Kernel } from './kernel.ts';
import type { KernelTime } from './profile.ts';

/** Element types a tensor can hold. Every element is 4 bytes. */
export type DType = 'f32' | 'u32' | 'i32';

export type HostArray = Float32Array | Uint32Array | Int32Array;

/** What CPU twins compute on: host arrays, or float64 for finite-difference references. */
export type NumArray = HostArray | Float64Array;

/** The host array type that matches each dtype. */
export interface HostArrayOf {
  f32: Float32Array;
  u32: Uint32Array;
  i32: Int32Array;
}

/** A flat device buffer of `size` elements. Shapes live in the code that uses it. */
export interface Tensor<D extends DType = DType> {
  readonly size: number;
  readonly dtype: D;
  readonly label: string;
}

export type BackendKind = 'cpu' | 'webgpu';

/** Emitted once when the GPU device goes away (driver reset, `destroy()`, tab in background). */
export interface DeviceLostEvent {
  readonly type: 'device-lost';
  /** WebGPU's reason: 'destroyed' when our code destroyed it, otherwise 'unknown'. */
  readonly reason: string;
  readonly message: string;
}

/**
 * The compute surface the model is written against. Kernels are described once (`Kernel`): a WGSL
 * entry point and its CPU twin; a backend decides which of the two runs. Work may be queued:
 * `flush()` and `read()` are the points where it is guaranteed to have happened.
 */
export interface Backend {
  readonly kind: BackendKind;
  /** Human-readable, e.g. "CPU" or "WebGPU · swiftshader". */
  readonly name: string;
  /** Largest tensor, in elements, that `alloc` accepts. */
  readonly maxElements: number;
  alloc<D extends DType = 'f32'>(size: number, dtype?: D, label?: string): Tensor<D>;
  write(t: Tensor, data: HostArray, offset?: number): void;
  read<D extends DType>(t: Tensor<D>): Promise<HostArrayOf[D]>;
  /** Several tensors in one read back (one GPU→CPU transfer on WebGPU), in order. */
  readMany<D extends DType>(ts: readonly Tensor<D>[]): Promise<HostArrayOf[D][]>;
  free(t: Tensor): void;
  run<P>(kernel: Kernel<P>, params: P, tensors: readonly Tensor[]): void;
  /** Submit queued work and wait until it has run. */
  flush(): Promise<void>;
  /** Number of kernel launches since creation; benchmarks report dispatches per step from it. */
  readonly dispatchCount: number;
  /** Number of reads back to the host since creation (GPU→CPU transfers on WebGPU). */
  readonly readCount: number;
  /**
   * Time every launch from now on, by kernel: wall time on the CPU, timestamp queries on WebGPU
   * (each launch then gets a compute pass of its own, which costs a little time itself).
   */
  startProfiling(): void;
  /** The times since startProfiling, once the work has run; null where launches cannot be timed. */
  stopProfiling(): Promise<KernelTime[] | null>;
  onDeviceLost(listener: (e: DeviceLostEvent) => void): () => void;
  destroy(): void;
}

export function hostArray<D extends DType>(dtype: D, size: number): HostArrayOf[D] {
  switch (dtype) {
    case 'u32':
      return new Uint32Array(size) as HostArrayOf[D];
    case 'i32':
      return new Int32Array(size) as HostArrayOf[D];
    default:
      return new Float32Array(size) as HostArrayOf[D];
  }
}

export function dtypeOf(a: HostArray): DType {
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Int32Array) return 'i32';
  return 'f32';
}

/** Allocate a tensor and fill it from host data in one call. */
export function upload<D extends DType>(
  be: Backend,
  data: HostArrayOf[D],
  label = 'upload',
): Tensor<D> {
  const t = be.alloc(data.length, dtypeOf(data) as D, label);
  be.write(t, data);
  return t;
}
