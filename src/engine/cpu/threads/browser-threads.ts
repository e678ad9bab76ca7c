import type { SpawnPoolThread } from './thread-pool.ts';

/** A pool thread as a module Worker beside the lane's (nested in it). */
export const spawnBrowserThread: SpawnPoolThread = (init) => {
  const worker = new Worker(new URL('./pool.worker.ts', import.meta.url), {
    type: 'module',
    name: 'cpu-thread',
  });
  worker.postMessage(init);
  return { terminate: () => worker.terminate() };
};
