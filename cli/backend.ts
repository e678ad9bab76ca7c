import type { Backend } from '../src/engine/backend.ts';
import { CpuBackend } from '../src/engine/cpu/cpu-backend.ts';
import { WebGpuBackend } from '../src/engine/webgpu/webgpu-backend.ts';
import { nodeGpu } from '../src/engine/webgpu/node-gpu.ts';
import { spawnNodeThread } from '../src/engine/cpu/threads/node-threads.ts';
import { startThreadPool } from '../src/engine/cpu/threads/thread-pool.ts';

/**
 * The backend a CLI asked for; WebGPU in Node runs on Dawn (SwiftShader without a GPU). The CPU
 * backend's kernels run on `threads` threads (the pool is this process's, one per run).
 */
export async function cliBackend(kind: string, threads = 1): Promise<Backend> {
  if (kind === 'cpu') {
    const pool = startThreadPool(threads, spawnNodeThread);
    if (pool.reason && threads > 1) console.error(`warning: --threads ${threads}: ${pool.reason}`);
    return new CpuBackend();
  }
  const r = await WebGpuBackend.create(nodeGpu());
  if (!r.ok) throw new Error(`WebGPU is unavailable here: ${r.reason}`);
  return r.backend;
}
