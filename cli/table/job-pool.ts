import { spawn } from 'node:child_process';
import { experimentNodeArgs } from './experiment-command.ts';
import type { TableRun } from './plan.ts';

/** One run in a child process; rejects with the end of its stderr where it fails. */
function runExperiment(run: TableRun, log: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, experimentNodeArgs(run), {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const last = d.toString().trim().split('\n').at(-1);
      if (last) console.error(`[${log}] ${last}`);
    });
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${log} failed (${code}): ${err.slice(-500)}`)),
    );
  });
}

/** How many of `runs` the pool runs at once with `jobs` processes. */
export function poolWidth(runs: readonly TableRun[], jobs: number): number {
  return Math.min(jobs, runs.length);
}

/**
 * Runs on this machine, `jobs` child processes at once, each taking the next run as it finishes;
 * each child's last stderr line is echoed with its method and seed.
 */
export async function runInPool(runs: readonly TableRun[], jobs: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < runs.length) {
      const r = runs[next++];
      await runExperiment(r, `${r.method} seed ${r.seed}`);
    }
  };
  await Promise.all(Array.from({ length: poolWidth(runs, jobs) }, worker));
}
