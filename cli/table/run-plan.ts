import { rmSync } from 'node:fs';
import { UsageError } from '../flags.ts';
import { partialPath } from '../out-file.ts';
import type { TableArgs } from './args.ts';
import { experimentCommand } from './experiment-command.ts';
import { poolWidth, runInPool } from './job-pool.ts';
import type { TableRun } from './plan.ts';
import { isFinished, stillToRun } from './reuse.ts';
import { runStates } from './run-states.ts';
import { slurmJobs } from './slurm-jobs.ts';
import { queuedRuns } from './slurm-queue.ts';
import { submitArray } from './slurm-submit.ts';
import { waitForQueue } from './slurm-wait.ts';
import { unfinishedReport } from './unfinished-report.ts';

/** How the plan's runs were had, for table.md: how many ran now, and how. */
export interface RunsDone {
  ran: number;
  how: string;
}

/** Every run of the plan finished in its file (checked as --reuse checks), or throws the report. */
function collected(plan: readonly TableRun[], dir: string, flag: string): void {
  const jobs = slurmJobs(dir);
  const states = runStates(plan, (r) => isFinished(r, flag), queuedRuns(jobs), jobs);
  if (states.some((s) => s !== 'finished'))
    throw new Error(unfinishedReport(plan, states, dir, jobs));
}

/** The runs still to run on Slurm, with their old outputs gone so none reads as finished early. */
function toSubmit(a: TableArgs, plan: readonly TableRun[], resume: boolean): TableRun[] {
  const queued = queuedRuns(slurmJobs(a.dir));
  const reuse = a.reuse || resume;
  if (!reuse && queued.size > 0)
    throw new UsageError(
      `runs of ${a.dir} are still in Slurm's queue; wait for them, scancel them, or --resume`,
    );
  const flag = resume ? '--resume' : '--reuse';
  const todo = reuse ? plan.filter((r) => !queued.has(r.out) && !isFinished(r, flag)) : [...plan];
  for (const r of todo) for (const f of [r.out, partialPath(r.out)]) rmSync(f, { force: true });
  return todo;
}

/**
 * Has the plan's runs as `a.mode` says: runs them here or on Slurm (waiting for them), or takes
 * back what the out-dir holds. Null where there is no table to build now: the commands were
 * printed, or the array was submitted without waiting.
 */
export async function runPlan(a: TableArgs, plan: readonly TableRun[]): Promise<RunsDone | null> {
  const mode = a.mode;
  switch (mode.kind) {
    case 'local': {
      const todo = stillToRun(plan, a.reuse);
      await runInPool(todo, a.jobs);
      return { ran: todo.length, how: `with ${poolWidth(todo, a.jobs)} at once` };
    }
    case 'print-commands':
      for (const r of stillToRun(plan, a.reuse)) console.log(experimentCommand(r));
      return null;
    case 'collect':
      collected(plan, a.dir, '--collect');
      return { ran: 0, how: '' };
    case 'slurm': {
      const todo = toSubmit(a, plan, mode.resume);
      const job = todo.length > 0 ? submitArray(a.dir, todo, `table-${a.task}`, mode.sbatch) : null;
      if (!mode.wait) {
        console.log(
          job
            ? `submitted Slurm job ${job.id}: ${todo.length} runs; watch it with squeue -j ${job.id}, and build the table when it is done with the same npm run table command, --collect in place of --on slurm --no-wait`
            : `nothing to submit: every run of ${a.dir} is finished or still in the queue; --collect builds the table`,
        );
        return null;
      }
      await waitForQueue(plan, a.dir, mode.pollS);
      collected(plan, a.dir, '--on slurm');
      return { ran: todo.length, how: job ? `as Slurm job ${job.id}` : '' };
    }
  }
}
