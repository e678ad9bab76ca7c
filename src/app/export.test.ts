import { describe, expect, it } from 'vitest';
import { fakeStep } from './testing/fake-metrics.ts';
import { presetConfig } from './presets.ts';
import { CSV_COLUMNS, csvCell, exportName, metricsCsv, metricsJson } from './export.ts';

/** A tiny RFC 4180 reader, enough to check what we write. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

const record = {
  step: 3,
  group: 1,
  round: 1,
  problem: '472+389',
  diagnosis: {
    cause: 'carry',
    frontier: 2,
    evidence: 'all 4 attempts, "dropped" the carry',
    confidence: 0.8,
  },
  hint: 'c=0110',
  scaffold: '16',
  strength: 2,
  rewards: [0, 1, 0, 0],
  note: '=HYPERLINK("x"), a sentence, with commas',
  author: 'rules',
};

describe('CSV export', () => {
  it('has every StepMetrics field as a column, interventions as JSON', () => {
    const metrics = [
      fakeStep(0, { events: ['mentor late', 'again'] }),
      fakeStep(1, {
        eval_accuracy: 0.5,
        interventions: [record],
        intervention_stats: { llm_valid_rate: 0.5 },
        eval_accuracy_prev: 0.75,
        eval_accuracy_levels: { '1': 0.75, '2': 0.5 },
        eval_accuracy_all: 0.625,
      }),
    ];
    const rows = parseCsv(metricsCsv(metrics));
    expect(rows[0]).toEqual([
      ...CSV_COLUMNS,
      'events',
      'interventions',
      'intervention_stats',
      'eval_accuracy_levels',
    ]);
    expect(rows).toHaveLength(3);
    const col = (name: string) => rows[0].indexOf(name);
    expect(rows[1][col('eval_accuracy')]).toBe('');
    expect(rows[2][col('eval_accuracy')]).toBe('0.5');
    expect(rows[1][col('kl')]).toBe('');
    expect(rows[1][col('events')]).toBe('mentor late | again');
    expect(JSON.parse(rows[2][col('interventions')])).toEqual([record]);
    expect(JSON.parse(rows[1][col('interventions')])).toEqual([]);
    expect(rows[1][col('intervention_stats')]).toBe('');
    expect(JSON.parse(rows[2][col('intervention_stats')])).toEqual({ llm_valid_rate: 0.5 });
    expect(rows[2][col('eval_accuracy_all')]).toBe('0.625');
    expect(JSON.parse(rows[2][col('eval_accuracy_levels')])).toEqual({ '1': 0.75, '2': 0.5 });
    expect(rows[1][col('eval_accuracy_levels')]).toBe('');
  });

  it('quotes and defuses cells', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell(-0.5)).toBe('-0.5');
    expect(csvCell(NaN)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });
});

describe('JSON export', () => {
  it('is the lane, its config and the metrics as they are', () => {
    const metrics = [fakeStep(0, { interventions: [record] })];
    const c = presetConfig('quick');
    const text = metricsJson(
      {
        lane: 'B',
        name: 'GRPO + MENTOR',
        method: 'mentor',
        backend: 'CPU',
        config: c,
        query: '?preset=quick',
        mentorCode: null,
      },
      metrics,
    );
    const doc = JSON.parse(text);
    expect(doc.format).toBe('mentor-playground/metrics@1');
    expect(doc.lane).toBe('B');
    expect(doc.config).toEqual(c);
    expect(doc.metrics).toEqual(metrics);
  });

  it('names files from safe parts only', () => {
    expect(exportName({ task: 'arithmetic', seed: 1 }, 'B', 'mentor', 42, 'csv')).toBe(
      'mentor-arithmetic-B-mentor-seed1-step42.csv',
    );
    expect(exportName({ task: 'arithmetic', seed: 1 }, 'A', '../x y', 0, 'json')).toBe(
      'mentor-arithmetic-A-_x_y-seed1-step0.json',
    );
  });
});
