import {
  hostArray,
  type Backend,
  type DType,
  type HostArray,
  type HostArrayOf,
  type NumArray,
  type Tensor,
} from '../backend.ts';
import { checkBindings } from '../bindings.ts';
import { BackendError } from '../errors.ts';
import type { Kernel } from '../kernel.ts';
import { KernelTimes, type KernelTime } from '../profile.ts';
import { allocBlock, blockView, freeBlock, heapBuffer } from './fast/heap.ts';

class CpuTensor<D extends DType> implements Tensor<D> {
  freed = false;
  constructor(
    readonly dtype: D,
    readonly label: string,
    readonly data: NumArray,
  ) {}
  get size(): number {
    return this.data.length;
  }
}

/**
 * A tensor in the WebAssembly heap the fast paths work in (fast/heap.ts). Its view is made anew
 * after the memory grows, which detaches every view taken before.
 */
class HeapTensor<D extends DType> implements Tensor<D> {
  freed = false;
  private view: NumArray;
  constructor(
    readonly dtype: D,
    readonly label: string,
    readonly at: number,
    readonly size: number,
  ) {
    this.view = blockView(at, size, dtype);
  }
  get data(): NumArray {
    if (this.view.buffer !== heapBuffer()) this.view = blockView(this.at, this.size, this.dtype);
    return this.view;
  }
}

/** Largest tensor the CPU backend accepts: 1 GiB of f32, far beyond any model here. */
const CPU_MAX_ELEMENTS = 1 << 28;

export interface CpuBackendOptions {
  /**
   * Store f32 tensors as float64. Not a training mode: it makes the twins an exact-enough
   * reference for finite-difference gradient checks. Implies `reference`.
   */
  float64?: boolean;
  /**
   * Run every kernel's plain reference twin, never its fast path: what WebGPU and the fast paths
   * are checked against.
   */
  reference?: boolean;
}

/**
 * The reference twin of every kernel, run synchronously on typed arrays. Also the backend of
 * choice for Node experiments and the fallback where WebGPU is missing.
 */
export class CpuBackend implements Backend {
  readonly kind = 'cpu' as const;
  readonly name: string;
  readonly maxElements = CPU_MAX_ELEMENTS;
  readonly float64: boolean;
  readonly reference: boolean;
  dispatchCount = 0;
  readCount = 0;
  private profile: KernelTimes | null = null;

  constructor(opts: CpuBackendOptions = {}) {
    this.float64 = opts.float64 ?? false;
    this.reference = this.float64 || (opts.reference ?? false);
    this.name = this.float64
      ? 'CPU (float64 reference)'
      : this.reference
        ? 'CPU (reference)'
        : 'CPU';
  }

  alloc<D extends DType = 'f32'>(size: number, dtype?: D, label = 'tensor'): Tensor<D> {
    const dt = (dtype ?? 'f32') as D;
    if (!Number.isInteger(size) || size <= 0) {
      throw new BackendError(`alloc "${label}": size must be a positive integer, got ${size}`);
    }
    if (size > this.maxElements) {
      throw new BackendError(
        `alloc "${label}": ${size} elements exceed the CPU backend's limit of ${this.maxElements}`,
      );
    }
    if (this.float64 && dt === 'f32') return new CpuTensor(dt, label, new Float64Array(size));
    // Off the heap in reference mode (the twins need none of it), or where it cannot grow.
    const at = this.reference ? null : allocBlock(size);
    if (at === null) return new CpuTensor(dt, label, hostArray(dt, size));
    const t = new HeapTensor(dt, label, at, size);
    t.data.fill(0);
    return t;
  }

  /** The live array behind a tensor, for callers that know they are on the CPU. */
  view(t: Tensor): NumArray {
    if (!(t instanceof CpuTensor || t instanceof HeapTensor))
      throw new BackendError(`tensor "${t.label}" belongs to another backend`);
    if (t.freed) throw new BackendError(`tensor "${t.label}" was freed`);
    return t.data;
  }

  write(t: Tensor, data: HostArray | Float64Array, offset = 0): void {
    const dst = this.view(t);
    if (offset < 0 || offset + data.length > dst.length) {
      throw new BackendError(
        `write "${t.label}": ${data.length} elements at offset ${offset} overflow its ${dst.length}`,
      );
    }
    const isFloat = (a: NumArray) => a instanceof Float32Array || a instanceof Float64Array;
    if (isFloat(dst) !== isFloat(data) || (!isFloat(dst) && dst.constructor !== data.constructor)) {
      throw new BackendError(`write "${t.label}": dtype ${t.dtype} does not match the data given`);
    }
    dst.set(data, offset);
  }

  async read<D extends DType>(t: Tensor<D>): Promise<HostArrayOf[D]> {
    return (await this.readMany([t]))[0];
  }

  async readMany<D extends DType>(ts: readonly Tensor<D>[]): Promise<HostArrayOf[D][]> {
    this.readCount++;
    return ts.map((t) => {
      const out = hostArray(t.dtype, t.size);
      out.set(this.view(t));
      return out;
    });
  }

  free(t: Tensor): void {
    this.view(t);
    (t as CpuTensor<DType> | HeapTensor<DType>).freed = true;
    if (t instanceof HeapTensor) freeBlock(t.at, t.size);
  }

  run<P>(kernel: Kernel<P>, params: P, tensors: readonly Tensor[]): void {
    checkBindings(kernel as Kernel<unknown>, tensors);
    const arrays = tensors.map((t) => this.view(t));
    const t0 = this.profile ? performance.now() : 0;
    if (this.reference || !kernel.cpuFast?.(params, arrays)) kernel.cpu(params, arrays);
    this.profile?.add(kernel.name, performance.now() - t0);
    this.dispatchCount++;
  }

  async flush(): Promise<void> {}

  startProfiling(): void {
    this.profile = new KernelTimes();
  }

  async stopProfiling(): Promise<KernelTime[] | null> {
    const times = this.profile?.list() ?? [];
    this.profile = null;
    return times;
  }

  onDeviceLost(): () => void {
    return () => {};
  }

  destroy(): void {}
}
