// Metrics out of the page. CSV: one row per step, every StepMetrics field as a column: the
// declared scalars (STEP_METRICS, in its order), then `events` joined with " | ", and
// `interventions`, `intervention_stats` and `eval_accuracy_levels` as JSON columns (the full
// records, as in the JSON file).
// JSON: the lane, its config and the StepMetrics list as the trainer produced it.
import { STEP_METRIC_KEYS, type StepMetricKey, type StepMetrics } from '../rl/metrics.ts';
import type { ExperimentConfig } from './experiment-config.ts';

/** Scalar columns, in order: the declared step scalars. */
export const CSV_COLUMNS: readonly StepMetricKey[] = STEP_METRIC_KEYS;

/** Columns after the scalar ones, written as text (events joined, the rest as JSON), in order. */
export const TEXT_COLUMNS = [
  'events',
  'interventions',
  'intervention_stats',
  'eval_accuracy_levels',
] as const satisfies readonly (keyof StepMetrics)[];

// Every StepMetrics field is exported: a field neither declared nor here fails to compile.
type Exported = StepMetricKey | (typeof TEXT_COLUMNS)[number];
const _allFields: Exclude<keyof StepMetrics, Exported> extends never ? true : never = true;
void _allFields;

/** One CSV cell (RFC 4180). Text that a spreadsheet would run as a formula gets a leading '. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  let s = typeof value === 'string' ? value : JSON.stringify(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

export function metricsCsv(metrics: readonly StepMetrics[]): string {
  const header = [...CSV_COLUMNS, ...TEXT_COLUMNS].join(',');
  const rows = metrics.map((m) =>
    [
      ...CSV_COLUMNS.map((k) => csvCell(m[k])),
      csvCell(m.events.join(' | ')),
      csvCell(JSON.stringify(m.interventions)),
      csvCell(m.intervention_stats ? JSON.stringify(m.intervention_stats) : ''),
      csvCell(m.eval_accuracy_levels ? JSON.stringify(m.eval_accuracy_levels) : ''),
    ].join(','),
  );
  return `${[header, ...rows].join('\r\n')}\r\n`;
}

export interface LaneExport {
  lane: 'A' | 'B';
  name: string;
  method: string;
  /** Where the lane ran (LaneInfo.backend). */
  backend: string | null;
  config: ExperimentConfig;
  /** The experiment's URL query, to open it again. */
  query: string;
  /** The custom mentor's code the lane ran (its method is `custom`); else null. */
  mentorCode: string | null;
}

export function metricsJson(lane: LaneExport, metrics: readonly StepMetrics[]): string {
  return `${JSON.stringify({ format: 'mentor-playground/metrics@1', ...lane, metrics }, null, 1)}\n`;
}

/** A file name from safe parts: `mentor-arithmetic-B-mentor-seed1-step120.csv`. */
export function exportName(
  c: Pick<ExperimentConfig, 'task' | 'seed'>,
  lane: 'A' | 'B',
  method: string,
  step: number,
  ext: string,
): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '_');
  return `mentor-${safe(c.task)}-${lane}-${safe(method)}-seed${c.seed}-step${step}.${safe(ext)}`;
}
