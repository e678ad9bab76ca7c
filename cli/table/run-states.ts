import { existsSync } from 'node:fs';
import { partialPath } from '../out-file.ts';
import type { TableRun } from './plan.ts';
import type { SlurmJob } from './slurm-jobs.ts';
import type { QueuedState } from './slurm-queue.ts';

/**
 * Where a run of the plan stands: finished in its output file, still in Slurm's queue, failed
 * (started, or submitted, and ended without finishing: killed, cancelled, out of time) or missing
 * (never started).
 */
export type RunState = 'finished' | QueuedState | 'failed' | 'missing';

const RUN_STATES: readonly RunState[] = ['finished', 'pending', 'running', 'failed', 'missing'];

/** Each run's state, in the plan's order; `finished` tells a finished output file. */
export function runStates(
  plan: readonly TableRun[],
  finished: (r: TableRun) => boolean,
  queued: ReadonlyMap<string, QueuedState>,
  jobs: readonly SlurmJob[],
): RunState[] {
  return plan.map((r) => {
    if (finished(r)) return 'finished';
    const q = queued.get(r.out);
    if (q) return q;
    const started = existsSync(partialPath(r.out)) || jobs.some((j) => j.outs.includes(r.out));
    return started ? 'failed' : 'missing';
  });
}

/** How many runs are in each state. */
export function stateCounts(states: readonly RunState[]): Record<RunState, number> {
  const counts = Object.fromEntries(RUN_STATES.map((s) => [s, 0])) as Record<RunState, number>;
  for (const s of states) counts[s]++;
  return counts;
}
