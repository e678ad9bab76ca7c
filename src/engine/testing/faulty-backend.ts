// Test-only: a backend that passes everything to a real one and can poison a gradient on its way
// to the optimizer, or fail at a chosen launch (e.g. lose the device mid-step), for the
// fault-injection tests (no production code path knows of it).
import type { Backend, DType, HostArray, HostArrayOf, Tensor } from '../backend.ts';
import type { Kernel } from '../kernel.ts';
import type { KernelTime } from '../profile.ts';

export class FaultyBackend implements Backend {
  /** Values to write into the next gradients the global norm reads, one per coming update. */
  private readonly poison: number[] = [];

  /** Launches to go before `fault` runs, and the fault. */
  private pending: { launches: number; fault: () => void } | null = null;

  constructor(readonly inner: Backend) {}

  /** `fault` runs just before the launch `launches` from now (0: the next one). */
  failAtLaunch(launches: number, fault: () => void): void {
    this.pending = { launches, fault };
  }

  /** The next `count` updates each find `value` (NaN, ±Infinity) in their first gradient. */
  poisonGradients(value: number, count = 1): void {
    for (let i = 0; i < count; i++) this.poison.push(value);
  }

  run<P>(kernel: Kernel<P>, params: P, tensors: readonly Tensor[]): void {
    if (this.pending && this.pending.launches-- === 0) {
      const { fault } = this.pending;
      this.pending = null;
      fault();
    }
    // The global norm's first sum of squares opens every update: poison its gradient there.
    const first = (params as { firstSlot?: number }).firstSlot === 0;
    if (kernel.name === 'gradnorm.sum_squares' && first && this.poison.length > 0) {
      this.inner.write(tensors[0], Float32Array.of(this.poison.shift() as number), 0);
    }
    this.inner.run(kernel, params, tensors);
  }

  get kind() {
    return this.inner.kind;
  }
  get name() {
    return `${this.inner.name} (faulty)`;
  }
  get maxElements() {
    return this.inner.maxElements;
  }
  get dispatchCount() {
    return this.inner.dispatchCount;
  }
  get readCount() {
    return this.inner.readCount;
  }
  alloc<D extends DType = 'f32'>(size: number, dtype?: D, label?: string): Tensor<D> {
    return this.inner.alloc(size, dtype, label);
  }
  write(t: Tensor, data: HostArray, offset?: number): void {
    this.inner.write(t, data, offset);
  }
  read<D extends DType>(t: Tensor<D>): Promise<HostArrayOf[D]> {
    return this.inner.read(t);
  }
  readMany<D extends DType>(ts: readonly Tensor<D>[]): Promise<HostArrayOf[D][]> {
    return this.inner.readMany(ts);
  }
  free(t: Tensor): void {
    this.inner.free(t);
  }
  flush(): Promise<void> {
    return this.inner.flush();
  }
  startProfiling(): void {
    this.inner.startProfiling();
  }
  stopProfiling(): Promise<KernelTime[] | null> {
    return this.inner.stopProfiling();
  }
  onDeviceLost(listener: Parameters<Backend['onDeviceLost']>[0]): () => void {
    return this.inner.onDeviceLost(listener);
  }
  destroy(): void {
    this.inner.destroy();
  }
}
