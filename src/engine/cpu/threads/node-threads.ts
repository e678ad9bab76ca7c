import { Worker } from 'node:worker_threads';
import type { SpawnPoolThread } from './thread-pool.ts';

/**
 * A pool thread as a worker_threads Worker (the CLI's and the tests'). Unreferenced: a thread
 * waiting for work does not keep the process alive.
 */
export const spawnNodeThread: SpawnPoolThread = (init) => {
  const worker = new Worker(new URL('./node-thread-boot.mjs', import.meta.url), {
    workerData: init,
  });
  worker.unref();
  // A thread that never starts takes no chunk; its owner does them all. Say so, once.
  worker.on('error', (e: Error) => console.error(`a CPU thread failed to start: ${e.message}`));
  return { terminate: () => void worker.terminate() };
};
