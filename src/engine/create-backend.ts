import type { Backend } from './backend.ts';
import { CpuBackend } from './cpu/cpu-backend.ts';
import { WebGpuBackend } from './webgpu/webgpu-backend.ts';

export type BackendPreference = 'auto' | 'webgpu' | 'cpu';

export interface BackendChoice {
  backend: Backend;
  /** Why the CPU backend runs instead of WebGPU; null when WebGPU runs or CPU was asked for. */
  fallbackReason: string | null;
}

/**
 * WebGPU where it works, the CPU twin otherwise — with the reason, so the page can say plainly
 * why it is slower. `gpu` is navigator.gpu in a browser or worker, nodeGpu() in Node.
 */
export async function createBackend(
  preference: BackendPreference,
  gpu: GPU | undefined,
): Promise<BackendChoice> {
  if (preference === 'cpu') return { backend: new CpuBackend(), fallbackReason: null };
  const r = await WebGpuBackend.create(gpu);
  if (r.ok) return { backend: r.backend, fallbackReason: null };
  return { backend: new CpuBackend(), fallbackReason: r.reason };
}
