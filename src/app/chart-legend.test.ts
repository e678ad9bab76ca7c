import { describe, expect, it } from 'vitest';
import { formatReading, readingAt, seriesStroke } from './chart-legend.ts';

describe('chart legend', () => {
  it('gives the eval chart’s six series six different strokes', () => {
    const styles = ([0, 1] as const).flatMap((lane) => [
      { lane },
      { lane, dashed: true },
      { lane, dotted: true },
    ]);
    const strokes = styles.map((s) => JSON.stringify(seriesStroke(s)));
    expect(new Set(strokes).size).toBe(6);
    expect(seriesStroke({ lane: 0 }).dash).toBeNull();
    expect(seriesStroke({ lane: 1, dashed: true }).dash).toEqual([6, 4]);
  });

  it('reads a sparse series at the cursor as its latest value at or before it', () => {
    const cols = {
      x: [0, 1, 2, 3],
      ys: [
        [null, 0.5, null, null],
        [0.1, 0.2, 0.3, 0.4],
      ],
    };
    expect(readingAt(cols, 0, 0)).toBeNull();
    expect(readingAt(cols, 0, 3)).toEqual({ value: 0.5, step: 1 });
    expect(readingAt(cols, 1, 2)).toEqual({ value: 0.3, step: 2 });
    expect(readingAt(cols, 1, 99)).toEqual({ value: 0.4, step: 3 });
  });

  it('writes a reading’s step only where it is not the step the legend is at', () => {
    expect(formatReading(null, 3)).toBe('–');
    expect(formatReading({ value: 0.5, step: 3 }, 3)).toBe('0.500');
    expect(formatReading({ value: 0.5, step: 1 }, 3)).toBe('0.500 (step 1)');
    expect(formatReading({ value: 0.25, step: 40 }, null)).toBe('0.250 (step 40)');
  });
});
