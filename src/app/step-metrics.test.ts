// Every declared step metric reaches every place that lists the metrics: a metric added to one of
// them only (or a hand-kept list creeping back) fails here. Names out of the declaration fail tsc.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STEP_METRIC_KEYS, STEP_METRICS, type MetricSpec } from '../rl/metrics.ts';
import { CHART_METRICS } from './chart-data.ts';
import { metricsCsv, metricsJson, TEXT_COLUMNS } from './export.ts';
import { presetConfig } from './presets.ts';
import { readRun, SAVED_RUN_VERSION } from './run-store.ts';
import { metricTable, withMetricTable } from './step-metrics-doc.ts';
import { fakeStep } from './testing/fake-metrics.ts';
import { DOC_PATH } from './url-params-doc.ts';

/** A step with every declared metric present, the optional ones too. */
function fullStep() {
  const optional = Object.fromEntries(
    STEP_METRIC_KEYS.filter((k) => (STEP_METRICS[k] as MetricSpec).optional).map((k) => [k, 1]),
  );
  return fakeStep(7, optional);
}

/** The step, saved in the current format and read back: null when the check dropped it. */
function savedAndRead(metrics: Record<string, unknown>): Record<string, unknown> | null {
  const r = readRun({
    meta: {
      version: SAVED_RUN_VERSION,
      query: '',
      savedAt: 0,
      base: 'b',
      mentorCode: null,
      taskCode: null,
    },
    steps: [{ lane: 0, step: 7, metrics }],
    checkpoints: [],
  });
  if (r.kind !== 'run') throw new Error(r.kind);
  return (r.run.lanes[0][0] as unknown as Record<string, unknown> | undefined) ?? null;
}

describe.each(STEP_METRIC_KEYS)('the step metric %s', (key) => {
  const spec: MetricSpec = STEP_METRICS[key];

  it('is a CSV column, with its value', () => {
    const step = fullStep();
    const [header, row] = metricsCsv([step]).split('\r\n');
    const at = header.split(',').indexOf(key);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(row.split(',')[at]).toBe(String(step[key] ?? ''));
  });

  it('is in the JSON export', () => {
    const doc = JSON.parse(
      metricsJson(
        {
          lane: 'A',
          name: 'A',
          method: 'none',
          backend: null,
          config: presetConfig('quick'),
          query: '',
          mentorCode: null,
        },
        [fullStep()],
      ),
    ) as { metrics: Record<string, unknown>[] };
    expect(doc.metrics[0]).toHaveProperty(key);
  });

  it('is checked when a saved run is read, and absent only where declared optional', () => {
    const step = fullStep() as unknown as Record<string, unknown>;
    expect(savedAndRead(step)?.[key]).toEqual(step[key]);
    expect(savedAndRead({ ...step, [key]: {} })).toBeNull();
    const { [key]: _, ...without } = step;
    expect(savedAndRead(without) === null).toBe(!spec.optional);
  });

  it('is a chart series when it is a number (the step, the x axis, aside)', () => {
    const charted = spec.kind !== 'text' && key !== 'step';
    expect((CHART_METRICS as readonly string[]).includes(key)).toBe(charted);
  });

  it('has a row of the docs table', () => {
    expect(metricTable()).toMatch(new RegExp(`^\\| \`${key}\` +\\|`, 'm'));
  });

  it('is set by the test steps unless it is optional', () => {
    expect(key in fakeStep(0)).toBe(!spec.optional);
  });
});

describe('the step metrics', () => {
  it('are the CSV columns before the text columns, in the declared order', () => {
    const [header] = metricsCsv([fakeStep(0)]).split('\r\n');
    expect(header.split(',')).toEqual([...STEP_METRIC_KEYS, ...TEXT_COLUMNS]);
    expect(header).toMatch(/^step,level,method,reward,/);
  });

  it('have the docs table npm run docs:metrics writes', () => {
    const doc = readFileSync(DOC_PATH, 'utf8');
    expect(withMetricTable(doc)).toBe(doc);
  });

  it('have one-line docs that a Markdown table can hold', () => {
    for (const key of STEP_METRIC_KEYS)
      expect((STEP_METRICS[key] as MetricSpec).doc).toMatch(/^[^|\n]+$/);
  });
});
