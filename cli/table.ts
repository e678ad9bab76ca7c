import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { TOOL_NODE_ARGS } from '../scripts/tool-args.ts';
import { loadCheckpoint } from '../src/model/checkpoint.ts';
import {
  DEFAULT_CEILING_EASY_SHARE,
  supervisedCeiling,
  type CeilingOptions,
  type CeilingPoint,
} from '../src/research/ceiling.ts';
import { lineChartSvg, type Series } from '../src/research/plot-svg.ts';
import { methodRows, parseRun, resultsMarkdown, type RunRecord } from '../src/research/results.ts';
import { METHODS, isMethod, methodColour } from '../src/interventions/methods.ts';
import { DEFAULT_GRPO } from '../src/rl/config.ts';
import { collapseSchedule, formatSchedule, parseSchedule } from '../src/rl/level-schedule.ts';
import type { FamilyEntry } from '../src/tasks/index.ts';
import { cliBackend } from './backend.ts';
import { checkpointSha256, readBaseCheckpoint } from './base-checkpoint.ts';
import { SCHEDULE_FLAG, TASK_FLAG, modelOf, taskOf } from './common-flags.ts';
import { EXPERIMENT_FLAGS, experimentConfig } from './experiment-config.ts';
import { UsageError, parseFlags, runCli, type Flag } from './flags.ts';

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
  {
    name: 'reuse',
    kind: 'bool',
    default: false,
    help: 'keep finished runs already in out-dir (refused where one ran with other flags, trainer settings or starting policy)',
  },
  {
    name: 'ceiling',
    kind: 'bool',
    default: false,
    help: "also fine-tune the shipped base on reference answers at RL's budget, and plot it",
  },
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

/** A run's flags less `--out` and its file. */
function withoutOut(args: readonly string[]): string[] {
  const i = args.indexOf('--out');
  return i < 0 ? [...args] : [...args.slice(0, i), ...args.slice(i + 2)];
}

/**
 * Why a finished run is not the one `npm run experiment` with `args` would be, or null if it is:
 * the same flags, the same trainer settings (a trainer default changed since shows; the
 * interventions' own defaults do not) and the same starting policy. Where it was written (a copy
 * from another table) does not matter.
 */
function unlike(ran: RunRecord, args: string[]): string | null {
  if (!ran.args || ran.config === null || ran.baseSha256 === null)
    return 'was written before runs kept what they ran with, so it cannot be told apart';
  if (withoutOut(ran.args).join('\0') !== withoutOut(args).join('\0'))
    return `was run with other flags (${ran.args.join(' ')})`;
  const f = parseFlags(args, EXPERIMENT_FLAGS);
  // Through JSON, as the run wrote it; compared by value, whatever the order of the keys.
  const config: unknown = JSON.parse(JSON.stringify(experimentConfig(f)));
  if (!isDeepStrictEqual(ran.config, config))
    return 'was run with other trainer settings (a trainer default has changed since)';
  const base = readBaseCheckpoint(taskOf(f).task, modelOf(f), f.init);
  if (ran.baseSha256 !== checkpointSha256(base))
    return 'started from another policy (the checkpoint has changed since)';
  return null;
}

function run(args: string[], log: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // Launched as `npm run experiment` is, so a run in a table computes exactly what it computes
    // for the same flags (without relaxed SIMD the sums round differently and runs drift apart).
    const child = spawn(process.execPath, [...TOOL_NODE_ARGS, 'cli/experiment.ts', ...args], {
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

/**
 * The supervised ceiling at RL's budget — as many examples a step as GRPO has prompts, at its
 * learning rate, for the steps after the jump — on the shipped base; kept in the out-dir so a
 * --reuse run reads it back.
 */
async function ceilingAt(
  task: string,
  entry: FamilyEntry,
  steps: number,
  file: string,
  reuse: boolean,
): Promise<CeilingPoint[]> {
  const opts: CeilingOptions = {
    seed: 1,
    steps,
    batch: DEFAULT_GRPO.prompts,
    lr: DEFAULT_GRPO.lr,
    easyShare: DEFAULT_CEILING_EASY_SHARE,
    evalEvery: DEFAULT_GRPO.evalEvery,
    evalSize: DEFAULT_GRPO.evalSize,
  };
  const bytes = readBaseCheckpoint(task, 'tiny', undefined);
  const baseSha256 = checkpointSha256(bytes);
  if (reuse && existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as {
      opts: CeilingOptions;
      base_sha256?: string;
      points: CeilingPoint[];
    };
    if (isDeepStrictEqual(saved.opts, opts) && saved.base_sha256 === baseSha256)
      return saved.points;
  }
  const { model } = loadCheckpoint(await cliBackend('cpu'), bytes);
  console.error(`[ceiling] supervised at level ${entry.collapse.hard}, ${steps} steps`);
  const points = await supervisedCeiling(model, entry.training, entry.collapse, opts);
  writeFileSync(file, `${JSON.stringify({ opts, base_sha256: baseSha256, points })}\n`);
  return points;
}

/** When the supervised ceiling's hard-level eval reaches `threshold`, in updates as the runs count. */
function ceilingStepsTo(points: readonly CeilingPoint[], threshold: number): string {
  const hit = points.find((p) => p.hard >= threshold);
  return hit ? `after ${hit.step} steps` : 'never';
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
    const argsOf = (j: (typeof jobs)[number]) => [
      ...['--task', task, '--method', j.method, '--seed', String(j.seed)],
      ...['--steps', String(f.steps), '--out', j.file, ...extra],
      ...(f.schedule ? ['--schedule', String(f.schedule)] : []),
    ];
    const todo = jobs.filter((j) => {
      if (!f.reuse || !existsSync(j.file)) return true;
      const text = readFileSync(j.file, 'utf8');
      if (!text.includes('"summary"')) return true;
      const why = unlike(parseRun(text), argsOf(j));
      if (why)
        throw new UsageError(`--reuse: ${j.file} ${why}; move it away or pick another --out-dir`);
      return false;
    });
    const t0 = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < todo.length) {
        const j = todo[next++];
        await run(argsOf(j), `${j.method} seed ${j.seed}`);
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
    const ceiling = f.ceiling
      ? await ceilingAt(
          task,
          entry,
          Number(f.steps) - change,
          join(dir, 'ceiling.json'),
          Boolean(f.reuse),
        )
      : null;
    if (ceiling) {
      evalSeries.push({
        label: 'supervised',
        color: '#111827',
        dashed: true,
        points: ceiling.map((p) => [change + p.step, p.hard]),
      });
    }
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
      ...(ceiling
        ? [
            `Supervised ceiling (the shipped base fine-tuned on reference answers, ${DEFAULT_GRPO.prompts} a step at ${DEFAULT_GRPO.lr.toExponential()}, ${DEFAULT_CEILING_EASY_SHARE * 100}% from the easy level; dashed in the plot): 0.5 ${ceilingStepsTo(ceiling, 0.5)}, 0.8 ${ceilingStepsTo(ceiling, 0.8)}, ${(100 * (ceiling.at(-1)?.hard ?? 0)).toFixed(1)}% at the end, easy level ${(100 * (ceiling.at(-1)?.easy ?? 0)).toFixed(1)}%.`,
            '',
          ]
        : []),
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
