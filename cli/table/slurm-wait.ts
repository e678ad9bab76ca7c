import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { etaText } from '../../src/platform/eta.ts';
import type { TableRun } from './plan.ts';
import { runStates, stateCounts, type RunState } from './run-states.ts';
import { slurmJobs } from './slurm-jobs.ts';
import { queuedRuns } from './slurm-queue.ts';

/**
 * The progress line: runs by state, and when the rest should be done at the pace the runs
 * finished since the wait began (`finishedBefore` were already) have set.
 */
export function progressLine(
  states: readonly RunState[],
  elapsedS: number,
  finishedBefore: number,
): string {
  const n = stateCounts(states);
  const since = n.finished - finishedBefore;
  const left = n.pending + n.running;
  const etaS = since > 0 && left > 0 ? (elapsedS * left) / since : null;
  const eta = etaS === null ? '' : `; ${etaText(etaS)}`;
  return `[slurm] ${n.finished}/${states.length} finished, ${n.pending} pending, ${n.running} running, ${n.failed} failed${eta}`;
}

/**
 * Waits until none of the plan's runs is in the queue of the arrays submitted for `outDir`,
 * looking every `pollS` seconds and printing the progress where it changed. A run's file at its
 * output path is a finished run (it is renamed there only when complete).
 */
export async function waitForQueue(
  plan: readonly TableRun[],
  outDir: string,
  pollS: number,
): Promise<void> {
  const jobs = slurmJobs(outDir);
  const landed = (r: TableRun) => existsSync(r.out);
  const finishedBefore = plan.filter(landed).length;
  const t0 = performance.now();
  let shown = '';
  for (;;) {
    // The queue first, then the files: a run that left the queue is seen finished if it did.
    const queued = queuedRuns(jobs);
    const line = progressLine(
      runStates(plan, landed, queued, jobs),
      (performance.now() - t0) / 1000,
      finishedBefore,
    );
    if (line !== shown) console.error(line);
    shown = line;
    if (queued.size === 0) return;
    await sleep(pollS * 1000);
  }
}
