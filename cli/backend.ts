import type { Backend } from '../src/engine/backend.ts';
import { CpuBackend } from '../src/engine/cpu/cpu-backend.ts';
import { WebGpuBackend } from '../src/engine/webgpu/webgpu-backend.ts';
import { nodeGpu } from '../src/engine/webgpu/node-gpu.ts';

/** The backend a CLI asked for; WebGPU in Node runs on Dawn (SwiftShader without a GPU). */
export async function cliBackend(kind: string): Promise<Backend> {
  if (kind === 'cpu') return new CpuBackend();
  const r = await WebGpuBackend.create(nodeGpu());
  if (!r.ok) throw new Error(`WebGPU is unavailable here: ${r.reason}`);
  return r.backend;
}
