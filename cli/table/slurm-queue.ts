import { spawnSync } from 'node:child_process';
import type { SlurmJob } from './slurm-jobs.ts';

/** A task the scheduler still holds: waiting for a node, or started. */
export type QueuedState = 'pending' | 'running';

/**
 * Runs a Slurm client and gives its stdout; where it is missing, or fails with other words than
 * `forgiven` (then nothing is given), throws with what it said.
 */
export function slurmClient(command: string, args: readonly string[], forgiven?: RegExp): string {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  if (r.error)
    throw new Error(`${command} could not be run (${r.error.message}); is this a Slurm node?`);
  if (r.status === 0) return r.stdout;
  if (forgiven?.test(r.stderr)) return '';
  throw new Error(`${command} failed: ${r.stderr.trim()}`);
}

/**
 * The output files of `jobs`' tasks still in the queue, by squeue (one line per array task).
 * Tasks that have ended are not among them, whether they finished, failed or were cancelled; the
 * output files tell those apart.
 */
export function queuedRuns(jobs: readonly SlurmJob[]): Map<string, QueuedState> {
  const queued = new Map<string, QueuedState>();
  if (jobs.length === 0) return queued;
  const byId = new Map(jobs.map((j) => [j.id, j]));
  const ids = [...byId.keys()].join(',');
  // squeue refuses job ids it has forgotten (ended a while ago): then none of them is queued.
  const table = slurmClient(
    'squeue',
    ['--noheader', '--array', '--jobs', ids, '--format', '%F %K %t'],
    /Invalid job id/i,
  );
  for (const line of table.split('\n')) {
    const [id, task, state] = line.trim().split(/\s+/);
    const out = byId.get(id)?.outs[Number(task)];
    if (out !== undefined) queued.set(out, state === 'PD' ? 'pending' : 'running');
  }
  return queued;
}
