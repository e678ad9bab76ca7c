import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { experimentCommand } from './experiment-command.ts';
import type { TableRun } from './plan.ts';
import type { SbatchOptions } from './run-mode.ts';
import { recordSlurmJob, slurmDir, slurmJobs, type SlurmJob } from './slurm-jobs.ts';
import { slurmClient } from './slurm-queue.ts';

/**
 * The array script: task i runs line i + 1 of the commands file it is given, from the checkout's
 * root (sbatch --chdir). exec, so scancel's signal reaches the run itself.
 */
const ARRAY_SCRIPT = `#!/usr/bin/env bash
# A table's Slurm array (npm run table -- --on slurm): task i runs line i + 1 of the file in $1.
set -euo pipefail
command=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" "$1")
echo "[task $SLURM_ARRAY_TASK_ID on $(hostname)] $command" >&2
eval "exec $command"
`;

/** sbatch's flags for the table's options; unset ones are left to the cluster's defaults. */
function sbatchFlags(o: SbatchOptions): string[] {
  return [
    ...(o.partition ? [`--partition=${o.partition}`] : []),
    ...(o.time ? [`--time=${o.time}`] : []),
    ...(o.cpusPerTask ? [`--cpus-per-task=${o.cpusPerTask}`] : []),
    ...(o.mem ? [`--mem=${o.mem}`] : []),
    ...o.extra,
  ];
}

/**
 * Submits `runs` as one job array, a task per run, and records it in the out-dir. The commands go
 * to a file of their own for each submission, as tasks still pending read theirs when they start.
 */
export function submitArray(
  outDir: string,
  runs: readonly TableRun[],
  name: string,
  o: SbatchOptions,
): SlurmJob {
  const dir = slurmDir(outDir);
  mkdirSync(dir, { recursive: true });
  const script = join(dir, 'array.sh');
  writeFileSync(script, ARRAY_SCRIPT);
  chmodSync(script, 0o755);
  const commands = join(dir, `commands-${slurmJobs(outDir).length + 1}.txt`);
  writeFileSync(commands, runs.map((r) => `${experimentCommand(r)}\n`).join(''));
  const args = [
    '--parsable',
    `--job-name=${name}`,
    `--array=0-${runs.length - 1}`,
    `--output=${resolve(dir, '%A_%a.log')}`,
    `--chdir=${process.cwd()}`,
    ...sbatchFlags(o),
    resolve(script),
    resolve(commands),
  ];
  console.error(`[slurm] sbatch ${args.join(' ')}`);
  // --parsable prints "id" or "id;cluster".
  const id = slurmClient('sbatch', args).trim().split(';')[0];
  const job = { id, outs: runs.map((r) => r.out) };
  recordSlurmJob(outDir, job);
  return job;
}
