import type { UniformField } from '../kernel.ts';

/** Uniform slots are 256 bytes apart: WebGPU's minUniformBufferOffsetAlignment. */
export const SLOT_BYTES = 256;

/**
 * Uniform blocks for the dispatches of one submit, staged on the host and uploaded with a single
 * writeBuffer just before the submit. Queue order makes that safe: the write lands after every
 * earlier submit has read the previous contents.
 */
export class UniformArena {
  readonly buffer: GPUBuffer;
  private readonly host: ArrayBuffer;
  private readonly view: DataView;
  private used = 0;

  constructor(
    private readonly device: GPUDevice,
    readonly slots = 1024,
  ) {
    this.buffer = device.createBuffer({
      label: 'uniform arena',
      size: slots * SLOT_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.host = new ArrayBuffer(slots * SLOT_BYTES);
    this.view = new DataView(this.host);
  }

  get full(): boolean {
    return this.used >= this.slots;
  }

  /** Stage one block; returns its byte offset in `buffer`. */
  push(fields: readonly UniformField[]): number {
    if (fields.length * 4 > SLOT_BYTES) throw new Error('uniform block larger than a slot');
    const offset = this.used * SLOT_BYTES;
    fields.forEach(([type, value], i) => {
      const at = offset + i * 4;
      if (type === 'f32') this.view.setFloat32(at, value, true);
      else if (type === 'i32') this.view.setInt32(at, value, true);
      else this.view.setUint32(at, value, true);
    });
    this.used++;
    return offset;
  }

  /** Upload the staged blocks and start over; call right before submitting their commands. */
  upload(): void {
    if (this.used === 0) return;
    this.device.queue.writeBuffer(this.buffer, 0, this.host, 0, this.used * SLOT_BYTES);
    this.used = 0;
  }

  destroy(): void {
    this.buffer.destroy();
  }
}
