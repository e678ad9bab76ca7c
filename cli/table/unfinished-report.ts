import { experimentCommand } from './experiment-command.ts';
import type { TableRun } from './plan.ts';
import { stateCounts, type RunState } from './run-states.ts';
import { taskLog, type SlurmJob } from './slurm-jobs.ts';

/** The last array that had `run`, with its task index: where its log is. */
function lastTask(run: TableRun, jobs: readonly SlurmJob[]): [SlurmJob, number] | null {
  for (const job of [...jobs].reverse()) {
    const i = job.outs.indexOf(run.out);
    if (i >= 0) return [job, i];
  }
  return null;
}

/**
 * The runs of the plan not finished, each with its state and, where it has to be run again, the
 * command that runs it (and the log of the task that failed); then how to run them all again.
 */
export function unfinishedReport(
  plan: readonly TableRun[],
  states: readonly RunState[],
  outDir: string,
  jobs: readonly SlurmJob[],
): string {
  const n = stateCounts(states);
  const lines = [
    `${n.finished} of ${plan.length} runs finished in ${outDir}; ${n.pending} pending, ${n.running} running, ${n.failed} failed, ${n.missing} missing:`,
  ];
  plan.forEach((run, i) => {
    const state = states[i];
    if (state === 'finished') return;
    const task = lastTask(run, jobs);
    const where = task ? ` (Slurm job ${task[0].id} task ${task[1]})` : '';
    lines.push(`  ${state.padEnd(8)}${run.out}${where}`);
    if (state === 'failed' && task) lines.push(`    log: ${taskLog(outDir, ...task)}`);
    if (state === 'failed' || state === 'missing') lines.push(`    ${experimentCommand(run)}`);
  });
  if (n.pending + n.running > 0) lines.push('Collect again when the queue has run them.');
  if (n.failed + n.missing > 0)
    lines.push(
      'Rerun each by its command (from the checkout root), or submit them all: the same npm run table command with --on slurm --resume.',
    );
  return lines.join('\n');
}
