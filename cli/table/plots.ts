import { isMethod, methodColour } from '../../src/interventions/methods.ts';
import type { CeilingPoint } from '../../src/research/ceiling.ts';
import { lineChartSvg, type Series } from '../../src/research/plot-svg.ts';
import type { RunRecord } from '../../src/research/results.ts';

type StepRecord = RunRecord['steps'][number];

/** Mean over runs of a per-step quantity, on a common grid of steps. */
function meanCurve(
  runs: RunRecord[],
  pick: (s: StepRecord) => number | undefined,
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

export interface TablePlotInput {
  task: string;
  methods: readonly string[];
  seeds: readonly number[];
  runs: RunRecord[];
  /** The step of the level jump, marked on both plots. */
  jump: number;
  /** The supervised ceiling's evals, counted from the jump; null without --ceiling. */
  ceiling: readonly CeilingPoint[] | null;
}

/**
 * The table's two plots, by file name: each method's greedy unhinted eval (with the supervised
 * ceiling dashed, where it ran) and its all-fail fraction over a 10-step window, means over seeds.
 */
export function tablePlots(p: TablePlotInput): Record<string, string> {
  const series = (metric: (s: StepRecord) => number | undefined, window: number) =>
    p.methods.map((m): Series => ({
      label: m,
      color: isMethod(m) ? methodColour(m) : '#000',
      points: meanCurve(
        p.runs.filter((r) => r.method === m),
        metric,
        window,
      ),
    }));
  const evalSeries = series((s) => s.eval_accuracy, 1);
  if (p.ceiling) {
    evalSeries.push({
      label: 'supervised',
      color: '#111827',
      dashed: true,
      points: p.ceiling.map((c) => [p.jump + c.step, c.hard]),
    });
  }
  const failSeries = series((s) => s.all_fail_frac, 10);
  const n = p.seeds.length;
  return {
    'eval_accuracy.svg': lineChartSvg(
      `${p.task}: greedy unhinted eval_accuracy (mean of ${n} seeds)`,
      evalSeries,
      [p.jump],
    ),
    'all_fail_frac.svg': lineChartSvg(
      `${p.task}: all_fail_frac (10-step mean, mean of ${n} seeds)`,
      failSeries,
      [p.jump],
    ),
  };
}
