import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One array submitted for a table: its job id, and the output file of each task by its index. */
export interface SlurmJob {
  id: string;
  outs: string[];
}

/** Where a table's Slurm files go: the arrays' commands, the script, the tasks' logs, the record. */
export function slurmDir(outDir: string): string {
  return join(outDir, 'slurm');
}

function recordFile(outDir: string): string {
  return join(slurmDir(outDir), 'jobs.json');
}

/** The arrays submitted for the table in `outDir`, oldest first (so --collect can ask after them). */
export function slurmJobs(outDir: string): SlurmJob[] {
  const file = recordFile(outDir);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SlurmJob[]) : [];
}

export function recordSlurmJob(outDir: string, job: SlurmJob): void {
  mkdirSync(slurmDir(outDir), { recursive: true });
  writeFileSync(recordFile(outDir), `${JSON.stringify([...slurmJobs(outDir), job], null, 1)}\n`);
}

/** The task's log, as the array script is told to write it (sbatch's %A_%a). */
export function taskLog(outDir: string, job: SlurmJob, task: number): string {
  return join(slurmDir(outDir), `${job.id}_${task}.log`);
}
