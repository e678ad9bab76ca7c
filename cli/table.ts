import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lineChartSvg, type Series } from '../src/research/plot-svg.ts';
import { methodRows, parseRun, resultsMarkdown, type RunRecord } from '../src/research/results.ts';
import { METHODS, isMethod, methodColour } from '../src/mentor/methods.ts';
import { collapseSchedule, formatSchedule, parseSchedule } from '../src/rl/level-schedule.ts';
import { SCHEDULE_FLAG, TASK_FLAG, taskOf } from './common-flags.ts';
import { UsageError, runCli, type Flag } from './flags.ts';

const FLAGS: Flag[] = [
  TASK_FLAG,
  { name: 'seeds', kind: 'string', default: '1,2,3', help: 'comma-separated run seeds' },
  { name: 'methods', kind: 'string', default: METHODS.join(','), help: 'comma-separated methods' },
  {
    name: 'scenario',
    kind: 'choice',
    choices: ['collapse'],
    default: 'collapse',
    help: "the family's easy→hard jump (its collapse scenario)",
  },
  SCHEDULE_FLAG,
  { name: 'steps', kind: 'int', default: 1000, min: 1, help: 'GRPO steps per run' },
  {
    name: 'jobs',
    kind: 'int',
    default: 2,
    min: 1,
    max: 16,
    help: 'runs at once (one CPU core each)',
  },
  {
    name: 'out-dir',
    kind: 'string',
    help: 'where runs, table.md and the plots go (default runs/table-<task>)',
  },
  { name: 'reuse', kind: 'bool', default: false, help: 'keep finished runs already in out-dir' },
  {
    name: 'extra',
    kind: 'string',
    default: '',
    help: 'extra flags passed to every experiment, e.g. "--eval-every 20"',
  },
];

function list(s: string, what: string): string[] {
  const xs = s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (xs.length === 0) throw new UsageError(`--${what} is empty`);
  return xs;
}

function run(args: string[], log: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', './cli/register.mjs', 'cli/experiment.ts', ...args],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
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

/** Mean over runs of a per-step quantity, on a common grid of steps. */
function meanCurve(
  runs: RunRecord[],
  pick: (s: RunRecord['steps'][number]) => number | undefined,
  smooth: number,
): [number, number][] {
  const byStep = new Map<number, number[]>();
  for (const r of runs) {
    const pts = r.steps
      .map((s) => [s.step, pick(s)] as const)
      .filter((p): p is readonly [number, number] => p[1] !== undefined);
    pts.forEach(([step], i) => {
      const window = pts.slice(Math.max(0, i - smooth + 1), i + 1);
      const v = window.reduce((a, p) => a + p[1], 0) / window.length;
      byStep.set(step, [...(byStep.get(step) ?? []), v]);
    });
  }
  return [...byStep.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([step, vs]) => [step + 1, vs.reduce((a, b) => a + b, 0) / vs.length]);
}

await runCli(
  'npm run table --',
  'Run every method on every seed (collapse scenario) and write the recovery table and plots.',
  FLAGS,
  async (f) => {
    const { task, entry } = taskOf(f);
    const seeds = list(String(f.seeds), 'seeds').map((s) => {
      const n = Number(s);
      if (!Number.isInteger(n) || n < 0) throw new UsageError(`--seeds: "${s}" is not a seed`);
      return n;
    });
    const methods = list(String(f.methods), 'methods');
    for (const m of methods)
      if (!isMethod(m)) throw new UsageError(`--methods: unknown method ${m}`);
    let schedule;
    try {
      schedule = f.schedule
        ? parseSchedule(String(f.schedule), entry.family.levels)
        : collapseSchedule(entry.collapse);
    } catch (e) {
      throw new UsageError(`--schedule: ${(e as Error).message}`);
    }
    const dir = String(f['out-dir'] ?? `runs/table-${task}`);
    mkdirSync(dir, { recursive: true });
    const extra = String(f.extra).split(/\s+/).filter(Boolean);
    const jobs = methods.flatMap((method) =>
      seeds.map((seed) => ({ method, seed, file: join(dir, `${method}-seed${seed}.jsonl`) })),
    );
    const todo = jobs.filter(
      (j) => !(f.reuse && existsSync(j.file) && readFileSync(j.file, 'utf8').includes('"summary"')),
    );
    const t0 = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < todo.length) {
        const j = todo[next++];
        const args = [
          '--task',
          task,
          '--method',
          j.method,
          '--seed',
          String(j.seed),
          '--steps',
          String(f.steps),
          '--out',
          j.file,
          ...extra,
        ];
        if (f.schedule) args.push('--schedule', String(f.schedule));
        await run(args, `${j.method} seed ${j.seed}`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(Number(f.jobs), todo.length) }, worker));

    const runs = jobs.map((j) => parseRun(readFileSync(j.file, 'utf8')));
    const rows = methodRows(runs, methods);
    const change = schedule[schedule.length - 1].step;
    const series = (
      metric: (s: RunRecord['steps'][number]) => number | undefined,
      window: number,
    ) =>
      methods.map((m): Series => ({
        label: m,
        color: isMethod(m) ? methodColour(m) : '#000',
        points: meanCurve(
          runs.filter((r) => r.method === m),
          metric,
          window,
        ),
      }));
    const evalSeries = series((s) => s.eval_accuracy, 1);
    const failSeries = series((s) => s.all_fail_frac, 10);
    writeFileSync(
      join(dir, 'eval_accuracy.svg'),
      lineChartSvg(
        `${task}: greedy unhinted eval_accuracy (mean of ${seeds.length} seeds)`,
        evalSeries,
        [change],
      ),
    );
    writeFileSync(
      join(dir, 'all_fail_frac.svg'),
      lineChartSvg(
        `${task}: all_fail_frac (10-step mean, mean of ${seeds.length} seeds)`,
        failSeries,
        [change],
      ),
    );
    const md = [
      `### ${task}: schedule ${formatSchedule(schedule)}, ${f.steps} steps, seeds ${seeds.join(',')}`,
      '',
      resultsMarkdown(rows),
      '',
      `![eval_accuracy](eval_accuracy.svg) ![all_fail_frac](all_fail_frac.svg)`,
      '',
      todo.length === 0
        ? `Runs: ${jobs.length}, all read back from ${dir}.`
        : `Runs: ${jobs.length} (${todo.length} run now, ${((performance.now() - t0) / 60000).toFixed(1)} min with ${Math.min(Number(f.jobs), todo.length)} at once).`,
    ].join('\n');
    writeFileSync(join(dir, 'table.md'), `${md}\n`);
    console.log(md);
  },
);
