// The page's side of the task worker: one worker per job, ended after it, started from a blob:
// URL so it inherits the page's Content-Security-Policy (src/platform/inheriting-worker.ts).
// A check has a deadline; a warm-up runs until it ends or the person cancels it.
import * as Comlink from 'comlink';
import { inheritingWorker } from '../../platform/inheriting-worker.ts';
import type { ModelSize } from '../../model/config.ts';
import type { WarmupProgress } from '../../rl/warmup.ts';
import taskWorkerUrl from './task.worker.ts?worker&url';
import type { TaskCheckResult, TaskWorkerApi, WarmedBase, WarmupOptions } from './task.worker.ts';

export type { TaskCheckResult, WarmedBase, WarmupOptions };

/** How long a check may take: sampling every level twice is milliseconds for a sane task. */
export const CHECK_DEADLINE_MS = 20_000;

export type WarmupReport = WarmupProgress & { phase: 'warm-up' | 'report' };

class TaskJob {
  private readonly worker = inheritingWorker(taskWorkerUrl, import.meta.url, 'custom task');
  readonly api = Comlink.wrap<TaskWorkerApi>(this.worker);
  /** Rejects when the worker fails outright (it ran out of memory, its code broke the worker). */
  readonly failed: Promise<never>;
  private stop: (why: Error) => void = () => {};

  constructor() {
    this.failed = new Promise<never>((_, reject) => {
      this.stop = reject;
      this.worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error(`its worker failed: ${e.message || 'an error it did not catch'}`));
      };
    });
    this.failed.catch(() => {});
  }

  /** Ends the worker; a call still waiting rejects with `why`. */
  end(why = new Error('ended')): void {
    this.stop(why);
    this.worker.terminate();
  }
}

/** Checks the task's code in a fresh worker, under a deadline that names the level it was at. */
export async function checkTaskCode(
  code: string,
  model: ModelSize,
  deadlineMs = CHECK_DEADLINE_MS,
): Promise<TaskCheckResult> {
  const job = new TaskJob();
  let level: number | null = null;
  const timer = setTimeout(() => {
    const where = level === null ? 'while it loaded' : `at level ${level}`;
    job.end(
      new Error(
        `its check did not end within ${deadlineMs / 1000} s (${where}): a sample or verify that never returns?`,
      ),
    );
  }, deadlineMs);
  try {
    return await Promise.race([
      job.api.check(
        code,
        model,
        Comlink.proxy((l: number) => (level = l)),
      ),
      job.failed,
    ]);
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  } finally {
    clearTimeout(timer);
    job.end();
  }
}

/** A warm-up in a fresh worker; `cancel()` ends it (its promise then rejects with "cancelled"). */
export function warmUpTask(
  code: string,
  options: WarmupOptions,
  onProgress: (p: WarmupReport) => void,
): { done: Promise<WarmedBase>; cancel: () => void } {
  const job = new TaskJob();
  const done = Promise.race([
    job.api.warmup(code, options, Comlink.proxy(onProgress)),
    job.failed,
  ]).finally(() => job.end());
  return { done, cancel: () => job.end(new Error('cancelled')) };
}
