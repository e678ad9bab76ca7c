/**
 * GPU time of the work between flushes, from timestamp queries written at the start and end of
 * each compute pass. Only built where the adapter offers 'timestamp-query'.
 */
export class GpuTimer {
  private readonly querySet: GPUQuerySet;
  private readonly resolveBuffer: GPUBuffer;
  private readonly readBuffer: GPUBuffer;
  private passes = 0;
  lastMs: number | null = null;
  /** GPU time of each pass of the last flush, in the order they began. */
  lastPassMs: number[] = [];

  /** `capacity`: most compute passes timed between two flushes; more are left untimed. */
  constructor(
    private readonly device: GPUDevice,
    private readonly capacity = 64,
  ) {
    this.querySet = device.createQuerySet({ type: 'timestamp', count: capacity * 2 });
    this.resolveBuffer = device.createBuffer({
      size: capacity * 16,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
    this.readBuffer = device.createBuffer({
      size: capacity * 16,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
  }

  /** Timestamp writes for the next pass, or none once the query set is used up. */
  nextPass(): GPUComputePassTimestampWrites | undefined {
    if (this.passes >= this.capacity) return undefined;
    const i = this.passes++;
    return {
      querySet: this.querySet,
      beginningOfPassWriteIndex: 2 * i,
      endOfPassWriteIndex: 2 * i + 1,
    };
  }

  /** Read the resolved timestamps after a flush and start a new measurement. */
  async collect(): Promise<void> {
    const n = this.passes;
    this.passes = 0;
    if (n === 0) {
      this.lastMs = 0;
      this.lastPassMs = [];
      return;
    }
    // Query results persist in the set, so one resolve after the flush covers every pass.
    const enc = this.device.createCommandEncoder();
    enc.resolveQuerySet(this.querySet, 0, n * 2, this.resolveBuffer, 0);
    enc.copyBufferToBuffer(this.resolveBuffer, 0, this.readBuffer, 0, n * 16);
    this.device.queue.submit([enc.finish()]);
    await this.readBuffer.mapAsync(GPUMapMode.READ, 0, n * 16);
    const t = new BigUint64Array(this.readBuffer.getMappedRange(0, n * 16).slice(0));
    this.readBuffer.unmap();
    this.lastPassMs = Array.from({ length: n }, (_, i) =>
      t[2 * i + 1] > t[2 * i] ? Number(t[2 * i + 1] - t[2 * i]) / 1e6 : 0,
    );
    this.lastMs = this.lastPassMs.reduce((a, b) => a + b, 0);
  }

  destroy(): void {
    this.querySet.destroy();
    this.resolveBuffer.destroy();
    this.readBuffer.destroy();
  }
}
