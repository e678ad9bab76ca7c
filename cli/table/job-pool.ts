import { spawn } from 'node:child_process';
import { experimentNodeArgs } from './experiment-command.ts';
import type { TableRun } from './plan.ts';
import { poolProgressLine } from './pool-progress.ts';

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
 * each child's last stderr line is echoed with its method and seed, and the pool's progress with
 * an ETA at the start and after each run.
 */
export async function runInPool(runs: readonly TableRun[], jobs: number): Promise<void> {
  if (runs.length === 0) return; // all reused: no progress to show
  const width = poolWidth(runs, jobs);
  const wallS: number[] = [];
  console.error(poolProgressLine(wallS, runs.length, width));
  let next = 0;
  const worker = async () => {
    while (next < runs.length) {
      const r = runs[next++];
      const t0 = performance.now();
      await runExperiment(r, `${r.method} seed ${r.seed}`);
      wallS.push((performance.now() - t0) / 1000);
      console.error(poolProgressLine(wallS, runs.length, width));
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
}
