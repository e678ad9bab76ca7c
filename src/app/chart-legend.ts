// What a chart's legend shows of each series: the stroke the plot draws it with (so six lines of
// two colours can be told apart), and its reading at the cursor, or its latest without one.
import { LANE_COLOURS } from './experiment-config.ts';
import type { Columns } from './downsample.ts';

export interface LineStyle {
  lane: 0 | 1;
  dashed?: boolean;
  /** Finer than dashed, for a third line of one lane. */
  dotted?: boolean;
}

export interface Stroke {
  colour: string;
  width: number;
  /** Dash and gap lengths in CSS pixels; null for a solid line. */
  dash: [number, number] | null;
}

/** The one place a series' look is decided: the plot and its legend both draw this. */
export function seriesStroke(s: LineStyle): Stroke {
  return {
    colour: LANE_COLOURS[s.lane],
    width: s.dashed || s.dotted ? 1.5 : 2,
    dash: s.dotted ? [2, 3] : s.dashed ? [6, 4] : null,
  };
}

export interface Reading {
  value: number;
  step: number;
}

/**
 * What series `k` reads at column `idx` (under the cursor): its latest value at or before it, as
 * an eval holds until the next one; null before its first value.
 */
export function readingAt(cols: Columns, k: number, idx: number): Reading | null {
  const ys = cols.ys[k] ?? [];
  for (let i = Math.min(idx, cols.x.length - 1); i >= 0; i--) {
    const v = ys[i];
    if (v !== null && v !== undefined) return { value: v, step: cols.x[i] };
  }
  return null;
}

/** A reading as the legend writes it: its value, and its step where that is not `at`. */
export function formatReading(r: Reading | null, at: number | null): string {
  if (!r) return '–';
  const value = r.value.toFixed(3);
  return r.step === at ? value : `${value} (step ${r.step})`;
}
