// The lane's CPU twin on a pool of threads where the page is cross-origin isolated. The lanes run
// in lockstep, so the one with more to do holds both: each lane may use every core (at most
// MAX_AUTO_THREADS), and when both are busy the system shares the cores between them.
import { spawnBrowserThread } from '../../engine/cpu/threads/browser-threads.ts';
import { startThreadPool, type PoolStatus } from '../../engine/cpu/threads/thread-pool.ts';

/** Beyond this the model's matrices are too small for more threads to pay. */
export const MAX_AUTO_THREADS = 4;

let status: PoolStatus | null = null;
let asked = 0;

/** `threads=0` (auto): the machine's cores, at most MAX_AUTO_THREADS. */
export function threadsFor(requested: number, cores: number): number {
  return requested > 0 ? requested : Math.max(1, Math.min(MAX_AUTO_THREADS, cores));
}

/** Starts the lane's pool (once per size asked for) and says how many threads it runs. */
export function lanePool(requested: number): PoolStatus {
  const n = threadsFor(requested, navigator.hardwareConcurrency || 1);
  if (status && asked === n) return status;
  asked = n;
  status = startThreadPool(n, spawnBrowserThread);
  if (status.threads === 1 && n === 1)
    status = {
      threads: 1,
      reason: requested === 1 ? 'threads=1 asked for' : 'the machine has one core',
    };
  return status;
}

/** The lane's CPU threads as the badge says them: "2 threads", or "one thread (why)". */
export function poolNote(): string | null {
  if (!status) return null;
  return status.threads > 1 ? `${status.threads} threads` : `one thread (${status.reason})`;
}
