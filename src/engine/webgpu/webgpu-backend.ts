import {
  hostArray,
  type Backend,
  type DType,
  type DeviceLostEvent,
  type HostArray,
  type HostArrayOf,
  type Tensor,
} from '../backend.ts';
import { checkBindings } from '../bindings.ts';
import { BackendError, DeviceLostError } from '../errors.ts';
import type { Kernel } from '../kernel.ts';
import { acquireDevice, type Acquired } from './acquire.ts';
import { PipelineCache } from './pipeline-cache.ts';
import { GpuTimer } from './gpu-timer.ts';
import { KernelTimes, type KernelTime } from '../profile.ts';
import { SLOT_BYTES, UniformArena } from './uniform-arena.ts';

class GpuTensor<D extends DType> implements Tensor<D> {
  freed = false;
  constructor(
    readonly size: number,
    readonly dtype: D,
    readonly label: string,
    readonly buffer: GPUBuffer,
  ) {}
}

export type WebGpuResult = { ok: true; backend: WebGpuBackend } | { ok: false; reason: string };

/**
 * Runs kernels as WGSL compute shaders. Launches are recorded into one compute pass and submitted
 * together at the next flush/read/write (or when the uniform arena fills), so a training step costs
 * a handful of submits, not one per kernel.
 */
export class WebGpuBackend implements Backend {
  readonly kind = 'webgpu' as const;
  readonly maxElements: number;
  dispatchCount = 0;
  readCount = 0;

  private readonly pipelines: PipelineCache;
  private readonly uniforms: UniformArena;
  private readonly timer: GpuTimer | null;
  /** While profiling: one pass per launch, timed, and the kernel of each pass since the flush. */
  private profile: { timer: GpuTimer; kernels: string[]; times: KernelTimes } | null = null;
  private encoder: GPUCommandEncoder | null = null;
  private pass: GPUComputePassEncoder | null = null;
  private lost: DeviceLostEvent | null = null;
  private closing = false;
  private readonly lostListeners = new Set<(e: DeviceLostEvent) => void>();
  private readonly validationErrors: string[] = [];
  private readonly staging = new Map<number, GPUBuffer[]>();

  private constructor(
    readonly device: GPUDevice,
    readonly name: string,
    timestamps: boolean,
  ) {
    const limits = device.limits;
    this.maxElements = Math.floor(
      Math.min(limits.maxBufferSize, limits.maxStorageBufferBindingSize) / 4,
    );
    this.pipelines = new PipelineCache(device);
    this.uniforms = new UniformArena(device);
    this.timer = timestamps ? new GpuTimer(device) : null;
    device.addEventListener('uncapturederror', (e) => {
      this.validationErrors.push((e as GPUUncapturedErrorEvent).error.message);
    });
    void device.lost.then((info) => {
      const event: DeviceLostEvent = {
        type: 'device-lost',
        reason: info.reason,
        message: info.message,
      };
      this.lost = event;
      if (this.closing) return;
      for (const l of this.lostListeners) l(event);
    });
  }

  /** Open a device on `gpu` (navigator.gpu in browsers, the `webgpu` package in Node). */
  static async create(
    gpu: GPU | undefined,
    opts: { timestamps?: boolean } = {},
  ): Promise<WebGpuResult> {
    const acquired: Acquired = await acquireDevice(gpu, opts);
    if (!acquired.ok) return acquired;
    return {
      ok: true,
      backend: new WebGpuBackend(acquired.device, acquired.name, acquired.timestamps),
    };
  }

  /** GPU time of the last `flush()`, in milliseconds, where the adapter has timestamp queries. */
  get lastGpuMs(): number | null {
    return this.timer?.lastMs ?? null;
  }

  get pipelineCount(): number {
    return this.pipelines.size;
  }

  private alive(): void {
    if (this.lost) throw new DeviceLostError(this.lost.reason, this.lost.message);
  }

  private buffer(t: Tensor): GPUBuffer {
    if (!(t instanceof GpuTensor))
      throw new BackendError(`tensor "${t.label}" belongs to another backend`);
    if (t.freed) throw new BackendError(`tensor "${t.label}" was freed`);
    return t.buffer;
  }

  alloc<D extends DType = 'f32'>(size: number, dtype?: D, label = 'tensor'): Tensor<D> {
    this.alive();
    if (!Number.isInteger(size) || size <= 0) {
      throw new BackendError(`alloc "${label}": size must be a positive integer, got ${size}`);
    }
    if (size > this.maxElements) {
      throw new BackendError(
        `alloc "${label}": ${size * 4} bytes exceed this adapter's largest storage buffer ` +
          `(${this.maxElements * 4} bytes, maxStorageBufferBindingSize/maxBufferSize)`,
      );
    }
    const buffer = this.device.createBuffer({
      label,
      size: size * 4,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    return new GpuTensor(size, (dtype ?? 'f32') as D, label, buffer);
  }

  write(t: Tensor, data: HostArray, offset = 0): void {
    this.alive();
    const buffer = this.buffer(t);
    if (offset < 0 || offset + data.length > t.size) {
      throw new BackendError(
        `write "${t.label}": ${data.length} elements at offset ${offset} overflow its ${t.size}`,
      );
    }
    // writeBuffer takes effect at once on the queue; recorded launches must run before it.
    this.submit();
    this.device.queue.writeBuffer(
      buffer,
      offset * 4,
      data.buffer,
      data.byteOffset,
      data.byteLength,
    );
  }

  async read<D extends DType>(t: Tensor<D>): Promise<HostArrayOf[D]> {
    return (await this.readMany([t]))[0];
  }

  async readMany<D extends DType>(ts: readonly Tensor<D>[]): Promise<HostArrayOf[D][]> {
    this.alive();
    if (ts.length === 0) return [];
    const offsets: number[] = [];
    let bytes = 0;
    for (const t of ts) {
      offsets.push(bytes);
      bytes += t.size * 4;
    }
    const sources = ts.map((t) => this.buffer(t));
    this.readCount++;
    const stage = this.takeStaging(bytes);
    this.submitting((enc) =>
      sources.forEach((src, i) =>
        enc.copyBufferToBuffer(src, 0, stage, offsets[i], ts[i].size * 4),
      ),
    );
    try {
      await stage.mapAsync(GPUMapMode.READ, 0, bytes);
    } catch (e) {
      await Promise.resolve();
      this.alive();
      const what = ts.length === 1 ? `"${ts[0].label}"` : `${ts.length} tensors`;
      throw new BackendError(`read ${what} failed: ${(e as Error).message}`);
    }
    const mapped = new Uint8Array(stage.getMappedRange(0, bytes));
    const out = ts.map((t, i) => {
      const host = hostArray(t.dtype, t.size);
      new Uint8Array(host.buffer).set(mapped.subarray(offsets[i], offsets[i] + t.size * 4));
      return host;
    });
    stage.unmap();
    this.staging.get(stage.size)?.push(stage);
    this.raiseValidationErrors();
    return out;
  }

  free(t: Tensor): void {
    const buffer = this.buffer(t);
    (t as GpuTensor<DType>).freed = true;
    this.submit();
    buffer.destroy();
  }

  run<P>(kernel: Kernel<P>, params: P, tensors: readonly Tensor[]): void {
    this.alive();
    checkBindings(kernel as Kernel<unknown>, tensors);
    const buffers = tensors.map((t) => this.buffer(t));
    const pipeline = this.pipelines.get(kernel as Kernel<unknown>, kernel.constants?.(params));
    if (this.uniforms.full) this.submit();
    const offset = this.uniforms.push(kernel.uniforms(params));
    const bindGroup = this.device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: this.uniforms.buffer, offset, size: SLOT_BYTES } },
        ...buffers.map((buffer, i) => ({ binding: i + 1, resource: { buffer } })),
      ],
    });
    const pass = this.computePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    const [x, y, z] = kernel.workgroups(params);
    pass.dispatchWorkgroups(x, y, z);
    this.dispatchCount++;
    if (this.profile) {
      this.profile.kernels.push(kernel.name);
      pass.end();
      this.pass = null;
    }
  }

  async flush(): Promise<void> {
    this.alive();
    this.submit();
    await this.device.queue.onSubmittedWorkDone();
    this.alive();
    if (this.profile) await this.collectProfile(this.profile);
    else if (this.timer) await this.timer.collect();
    this.raiseValidationErrors();
  }

  startProfiling(): void {
    if (!this.timer || this.profile) return;
    this.submit();
    // 2,048 passes between flushes: two timestamps each, and WebGPU allows 4,096 per query set.
    this.profile = {
      timer: new GpuTimer(this.device, 2048),
      kernels: [],
      times: new KernelTimes(),
    };
  }

  async stopProfiling(): Promise<KernelTime[] | null> {
    if (!this.profile) return null;
    await this.flush();
    const { timer, times } = this.profile;
    this.profile = null;
    timer.destroy();
    return times.list();
  }

  private async collectProfile(p: { timer: GpuTimer; kernels: string[]; times: KernelTimes }) {
    await p.timer.collect();
    p.timer.lastPassMs.forEach((ms, i) => p.times.add(p.kernels[i], ms));
    p.kernels = [];
  }

  onDeviceLost(listener: (e: DeviceLostEvent) => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  destroy(): void {
    this.closing = true;
    this.uniforms.destroy();
    for (const list of this.staging.values()) for (const b of list) b.destroy();
    this.device.destroy();
  }

  private computePass(): GPUComputePassEncoder {
    if (!this.pass) {
      this.encoder ??= this.device.createCommandEncoder();
      const timer = this.profile?.timer ?? this.timer;
      this.pass = this.encoder.beginComputePass(timer ? { timestampWrites: timer.nextPass() } : {});
    }
    return this.pass;
  }

  /** Submit recorded launches, plus whatever `extra` records after them, in one command buffer. */
  private submitting(extra?: (enc: GPUCommandEncoder) => void): void {
    if (this.pass) {
      this.pass.end();
      this.pass = null;
    }
    if (!this.encoder && !extra) return;
    const encoder = this.encoder ?? this.device.createCommandEncoder();
    this.encoder = null;
    extra?.(encoder);
    this.uniforms.upload();
    this.device.queue.submit([encoder.finish()]);
  }

  private submit(): void {
    this.submitting();
  }

  private takeStaging(bytes: number): GPUBuffer {
    const size = Math.max(256, 2 ** Math.ceil(Math.log2(bytes)));
    const pool = this.staging.get(size) ?? [];
    this.staging.set(size, pool);
    return (
      pool.pop() ??
      this.device.createBuffer({
        label: 'staging',
        size,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      })
    );
  }

  private raiseValidationErrors(): void {
    if (this.validationErrors.length === 0) return;
    const messages = this.validationErrors.splice(0);
    throw new BackendError(`WebGPU reported ${messages.length} error(s): ${messages.join(' | ')}`);
  }
}
