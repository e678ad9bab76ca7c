// From the lanes' step metrics to chart columns: one shared x axis (step), one series per lane and
// metric, gaps as null (eval_accuracy exists on eval steps only), then min/max downsampling, and
// where each series' line breaks (at level changes).
import {
  STEP_METRIC_KEYS,
  STEP_METRICS,
  type MetricSpec,
  type StepMetricKey,
  type StepMetrics,
} from '../rl/metrics.ts';
import { downsampleMinMax, type Columns } from './downsample.ts';

/** Metrics a chart can plot: every numeric one of STEP_METRICS but the x axis (the step). */
export type ChartMetric = {
  [K in StepMetricKey]: (typeof STEP_METRICS)[K] extends { kind: 'text' } | { chart: false }
    ? never
    : K;
}[StepMetricKey];

function isChartMetric(key: StepMetricKey): key is ChartMetric {
  const spec: MetricSpec = STEP_METRICS[key];
  return spec.kind !== 'text' && spec.chart !== false;
}

/** Every chart metric, in the declaration's order: what a chart's metric picker offers. */
export const CHART_METRICS: readonly ChartMetric[] = STEP_METRIC_KEYS.filter(isChartMetric);

/** What a chart metric measures, in the words of the trainer's metric table. */
export function chartMetricDoc(metric: ChartMetric): string {
  return STEP_METRICS[metric].doc;
}

export interface SeriesSpec {
  lane: number;
  metric: ChartMetric;
}

export const MAX_CHART_POINTS = 1000;

export function metricValue(m: StepMetrics, metric: ChartMetric): number | null {
  const v = m[metric];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export interface ChartColumns extends Columns {
  /** Per series, in the order of the specs: the x pairs its line must not join (levelBreaks). */
  breaks: [number, number][][];
}

/** Columns for uPlot: x = every step any lane has, ys in the order of `specs`. */
export function chartColumns(
  lanes: readonly (readonly StepMetrics[])[],
  specs: readonly SeriesSpec[],
  maxPoints = MAX_CHART_POINTS,
): ChartColumns {
  const steps = new Set<number>();
  for (const lane of lanes) for (const m of lane) steps.add(m.step);
  const x = [...steps].sort((a, b) => a - b);
  const at = new Map(x.map((s, i) => [s, i]));
  const ys = specs.map((spec) => {
    const ys: (number | null)[] = new Array<number | null>(x.length).fill(null);
    for (const m of lanes[spec.lane] ?? [])
      ys[at.get(m.step) as number] = metricValue(m, spec.metric);
    return ys;
  });
  const cols = downsampleMinMax({ x, ys }, maxPoints);
  const levels = lanes.map((lane) => new Map(lane.map((m) => [m.step, m.level])));
  return {
    ...cols,
    breaks: cols.ys.map((ys, k) => levelBreaks(cols.x, ys, levels[specs[k].lane])),
  };
}

/**
 * Consecutive points of a series on different levels, as x pairs: the line breaks between them.
 * Joined, a sparse series (an eval every 25 steps) would seem to fall before the level changed.
 */
export function levelBreaks(
  x: readonly number[],
  ys: readonly (number | null)[],
  levelAt: ReadonlyMap<number, number> | undefined,
): [number, number][] {
  const out: [number, number][] = [];
  let last: { x: number; level: number } | null = null;
  for (let i = 0; i < x.length; i++) {
    const level = levelAt?.get(x[i]);
    if (ys[i] === null || level === undefined) continue;
    if (last && last.level !== level) out.push([last.x, x[i]]);
    last = { x: x[i], level };
  }
  return out;
}

/** Steps where a lane's level changed (the first step at the new level), for chart markers. */
export function levelChanges(metrics: readonly StepMetrics[]): { step: number; level: number }[] {
  const out: { step: number; level: number }[] = [];
  for (let i = 1; i < metrics.length; i++) {
    if (metrics[i].level !== metrics[i - 1].level)
      out.push({ step: metrics[i].step, level: metrics[i].level });
  }
  return out;
}

/** The latest value of a metric (eval metrics: the latest eval), with its step. */
export function latestValue(
  metrics: readonly StepMetrics[],
  metric: ChartMetric,
): { step: number; value: number } | null {
  for (let i = metrics.length - 1; i >= 0; i--) {
    const v = metricValue(metrics[i], metric);
    if (v !== null) return { step: metrics[i].step, value: v };
  }
  return null;
}
