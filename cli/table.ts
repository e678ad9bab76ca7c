// `npm run table`: every method on every seed as a plan of `npm run experiment` runs, run here in
// a pool of child processes (finished ones taken back with --reuse), then the supervised ceiling
// where asked for, the plots and table.md. The plan and how it runs are in cli/table/.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { loadCheckpoint } from '../src/model/checkpoint.ts';
import {
  DEFAULT_CEILING_EASY_SHARE,
  supervisedCeiling,
  type CeilingOptions,
  type CeilingPoint,
} from '../src/research/ceiling.ts';
import { lineChartSvg, type Series } from '../src/research/plot-svg.ts';
import { methodRows, parseRun, resultsMarkdown, type RunRecord } from '../src/research/results.ts';
import { isMethod, methodColour } from '../src/interventions/methods.ts';
import { DEFAULT_GRPO } from '../src/rl/config.ts';
import { formatSchedule } from '../src/rl/level-schedule.ts';
import type { FamilyEntry } from '../src/tasks/index.ts';
import { cliBackend } from './backend.ts';
import { checkpointSha256, readBaseCheckpoint } from './base-checkpoint.ts';
import { runCli } from './flags.ts';
import { TABLE_FLAGS, TABLE_SUMMARY, parseTableArgs } from './table/args.ts';
import { poolWidth, runInPool } from './table/job-pool.ts';
import { tablePlan } from './table/plan.ts';
import { stillToRun } from './table/reuse.ts';

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
  TABLE_SUMMARY,
  TABLE_FLAGS,
  async (a) => {
    mkdirSync(a.dir, { recursive: true });
    const plan = tablePlan(a);
    const todo = stillToRun(plan, a.reuse);
    const t0 = performance.now();
    await runInPool(todo, a.jobs);

    const runs = plan.map((r) => parseRun(readFileSync(r.out, 'utf8')));
    const rows = methodRows(runs, a.methods);
    const change = a.schedule[a.schedule.length - 1].step;
    const series = (
      metric: (s: RunRecord['steps'][number]) => number | undefined,
      window: number,
    ) =>
      a.methods.map((m): Series => ({
        label: m,
        color: isMethod(m) ? methodColour(m) : '#000',
        points: meanCurve(
          runs.filter((r) => r.method === m),
          metric,
          window,
        ),
      }));
    const evalSeries = series((s) => s.eval_accuracy, 1);
    const ceiling = a.ceiling
      ? await ceilingAt(a.task, a.entry, a.steps - change, join(a.dir, 'ceiling.json'), a.reuse)
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
      join(a.dir, 'eval_accuracy.svg'),
      lineChartSvg(
        `${a.task}: greedy unhinted eval_accuracy (mean of ${a.seeds.length} seeds)`,
        evalSeries,
        [change],
      ),
    );
    writeFileSync(
      join(a.dir, 'all_fail_frac.svg'),
      lineChartSvg(
        `${a.task}: all_fail_frac (10-step mean, mean of ${a.seeds.length} seeds)`,
        failSeries,
        [change],
      ),
    );
    const md = [
      `### ${a.task}: schedule ${formatSchedule(a.schedule)}, ${a.steps} steps, seeds ${a.seeds.join(',')}`,
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
        ? `Runs: ${plan.length}, all read back from ${a.dir}.`
        : `Runs: ${plan.length} (${todo.length} run now, ${((performance.now() - t0) / 60000).toFixed(1)} min with ${poolWidth(todo, a.jobs)} at once).`,
    ].join('\n');
    writeFileSync(join(a.dir, 'table.md'), `${md}\n`);
    console.log(md);
  },
  parseTableArgs,
);
