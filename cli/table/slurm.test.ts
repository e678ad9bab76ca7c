import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { comparableRun, tableLessTiming } from '../testing/comparable-run.ts';
import { runTool } from '../testing/run-tool.ts';

// The table on a real scheduler: a cluster that answers here, or the one-node cluster
// scripts/slurm-test-cluster.sh starts as root from Debian's packages (.ci/run installs them).
const CLUSTER_SCRIPT = 'scripts/slurm-test-cluster.sh';

function clusterUp(): boolean {
  const r = spawnSync('sinfo', ['--noheader', '--Node', '--format', '%t'], { encoding: 'utf8' });
  return r.status === 0 && /^(idle|mix|alloc)/m.test(r.stdout);
}

/** Why the test cannot run here (null where a cluster is up), and whether it started one. */
function slurmHere(): { why: string | null; started: boolean } {
  if (clusterUp()) return { why: null, started: false };
  if (!existsSync('/usr/sbin/slurmctld') || !existsSync('/usr/sbin/munged'))
    return {
      why: 'no Slurm cluster answers, and Slurm is not installed (apt-get install slurmctld slurmd munge slurm-client)',
      started: false,
    };
  if (process.getuid?.() !== 0)
    return { why: `no Slurm cluster answers, and ${CLUSTER_SCRIPT} needs root`, started: false };
  const conf = join(process.env.SLURM_TEST_DIR ?? '/tmp/mentor-slurm', 'slurm.conf');
  // Only where the file is there: the clients wait a minute for a configuration file that is not.
  const had = existsSync(conf);
  process.env.SLURM_CONF = conf;
  if (had && clusterUp()) return { why: null, started: false };
  const r = spawnSync(CLUSTER_SCRIPT, ['start'], { encoding: 'utf8' });
  if (r.status !== 0)
    return { why: `${CLUSTER_SCRIPT} could not start one: ${r.stderr.trim()}`, started: false };
  return { why: null, started: true };
}

const slurm = slurmHere();
if (slurm.why) console.warn(`cli/table/slurm.test.ts is skipped: ${slurm.why}`);

// In the checkout (runs/ is ignored), as on a cluster only a shared filesystem reaches the nodes;
// made by the test, as hooks do not run where it is skipped.
let dir = '';
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  // Only what this test started is stopped.
  if (slurm.started) spawnSync(CLUSTER_SCRIPT, ['stop']);
});

const table = (outDir: string, ...more: string[]) =>
  runTool(
    'table',
    ...['--task', 'arithmetic', '--methods', 'none,mentor', '--seeds', '1,2', '--steps', '6'],
    ...['--schedule', '0:3,3:4', '--extra=--prompts 4 --eval-every 3 --eval-size 8'],
    ...['--out-dir', outDir, ...more],
  );

const RUNS = ['none-seed1', 'none-seed2', 'mentor-seed1', 'mentor-seed2'].map((r) => `${r}.jsonl`);

/** The runs and table.md in `outDir` equal those run here, timing aside. */
function expectSameTable(outDir: string, local: string) {
  for (const run of RUNS)
    expect(comparableRun(readFileSync(join(outDir, run), 'utf8')), run).toEqual(
      comparableRun(readFileSync(join(local, run), 'utf8')),
    );
  expect(tableLessTiming(readFileSync(join(outDir, 'table.md'), 'utf8'))).toBe(
    tableLessTiming(readFileSync(join(local, 'table.md'), 'utf8')),
  );
}

async function untilOutOfQueue(job: string) {
  for (;;) {
    const r = spawnSync('squeue', ['--noheader', '--jobs', job], { encoding: 'utf8' });
    if (r.status !== 0 || r.stdout.trim() === '') return;
    await sleep(500);
  }
}

describe('npm run table --on slurm', () => {
  it.skipIf(slurm.why !== null)(
    `runs the table as one job array alike, and --resume completes what scancel killed${slurm.why ? ` (skipped: ${slurm.why})` : ''}`,
    async () => {
      mkdirSync('runs', { recursive: true });
      dir = mkdtempSync(join('runs', 'slurm-test-'));
      const local = join(dir, 'local');
      const here = table(local);
      expect(here.code, here.stderr).toBe(0);

      const waited = join(dir, 'waited');
      const onSlurm = table(waited, '--on', 'slurm', '--poll', '1', '--time', '10');
      expect(onSlurm.code, onSlurm.stderr).toBe(0);
      expect(onSlurm.stderr).toMatch(/\[slurm\] 4\/4 finished, 0 pending, 0 running, 0 failed/);
      expect(onSlurm.stdout).toMatch(/4 run now, .* as Slurm job \d+/);
      expectSameTable(waited, local);

      // A task cancelled before it ends is a failed run, with the command that reruns it.
      const killed = join(dir, 'killed');
      const submitted = table(killed, '--on', 'slurm', '--no-wait');
      expect(submitted.code, submitted.stderr).toBe(0);
      const job = /submitted Slurm job (\d+)/.exec(submitted.stdout)?.[1] ?? '';
      expect(spawnSync('scancel', [`${job}_0`]).status).toBe(0);
      await untilOutOfQueue(job);
      const collected = table(killed, '--collect');
      expect(collected.code).toBe(1);
      expect(collected.stderr).toMatch(/3 of 4 runs finished .* 1 failed, 0 missing/);
      expect(collected.stderr).toMatch(
        new RegExp(`failed +\\S+none-seed1\\.jsonl \\(Slurm job ${job} task 0\\)`),
      );
      expect(collected.stderr).toMatch(/\n +node --experimental-wasm-relaxed-simd .* --seed 1 /);
      expect(existsSync(join(killed, 'none-seed1.jsonl'))).toBe(false);

      const resumed = table(killed, '--on', 'slurm', '--resume', '--poll', '1');
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toMatch(/sbatch .*--array=0-0 /);
      expect(resumed.stdout).toMatch(/1 run now, .* as Slurm job \d+/);
      expectSameTable(killed, local);
    },
    300_000,
  );
});
