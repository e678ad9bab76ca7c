import { isMethod, methodColour } from '../../src/interventions/methods.ts';
import { bandPlotSvg, type BandSeries, type DashedSeries } from '../../src/research/band-plot.ts';
import type { CeilingPoint } from '../../src/research/ceiling.ts';
import type { RunRecord } from '../../src/research/results.ts';
import { stepQuartiles } from '../../src/research/step-quartiles.ts';

type StepRecord = RunRecord['steps'][number];

/** One run's (step, value) points of a per-step quantity, each a mean over the last `smooth`. */
function runCurve(
  run: RunRecord,
  pick: (s: StepRecord) => number | undefined,
  smooth: number,
): [number, number][] {
  const pts = run.steps
    .map((s) => [s.step, pick(s)] as const)
    .filter((p): p is readonly [number, number] => p[1] !== undefined);
  return pts.map(([step], i) => {
    const window = pts.slice(Math.max(0, i - smooth + 1), i + 1);
    // x is step + 1: steps count from 0, so the updates done, the unit of the ceiling's x.
    return [step + 1, window.reduce((a, p) => a + p[1], 0) / window.length];
  });
}

export interface TablePlotInput {
  task: string;
  methods: readonly string[];
  seeds: readonly number[];
  runs: RunRecord[];
  /** The step of the level jump, marked on both plots. */
  jump: number;
  /** The supervised reference's runs (one a seed), counted from the jump; null without --ceiling. */
  supervised: readonly { points: readonly CeilingPoint[] }[] | null;
}

/**
 * The table's two plots, by file name: each method's greedy unhinted eval (with the supervised
 * reference's median over seeds dashed, where it ran) and its all-fail fraction over a 10-step window of each run, as
 * the median over seeds with the interquartile band.
 */
export async function tablePlots(p: TablePlotInput): Promise<Record<string, string>> {
  const series = (metric: (s: StepRecord) => number | undefined, window: number) =>
    p.methods.map((m): BandSeries => ({
      label: m,
      colour: isMethod(m) ? methodColour(m) : '#000',
      points: stepQuartiles(
        p.runs.filter((r) => r.method === m).map((r) => runCurve(r, metric, window)),
      ),
    }));
  const ceiling: DashedSeries[] = p.supervised
    ? [
        {
          label: 'supervised',
          colour: '#111827',
          points: stepQuartiles(
            p.supervised.map((r) => r.points.map((c): [number, number] => [c.step, c.hard])),
          ).map((q) => [p.jump + q.step, q.median]),
        },
      ]
    : [];
  const of = `median of ${p.seeds.length} seeds, band: interquartile range`;
  return {
    'eval_accuracy.svg': await bandPlotSvg({
      title: `${p.task}: greedy unhinted eval_accuracy (${of})`,
      y: 'eval_accuracy',
      series: series((s) => s.eval_accuracy, 1),
      dashed: ceiling,
      markers: [p.jump],
    }),
    'all_fail_frac.svg': await bandPlotSvg({
      title: `${p.task}: all_fail_frac (10-step mean, ${of})`,
      y: 'all_fail_frac',
      series: series((s) => s.all_fail_frac, 10),
      markers: [p.jump],
    }),
  };
}
