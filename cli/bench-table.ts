import {
  formatRatio,
  formatValue,
  type BenchResult,
  type BenchRow,
} from '../src/model/benchmark.ts';

/** Rows as aligned plain text: figure names left, numbers right, one column per backend. */
export function benchTable(results: readonly BenchResult[], rows: readonly BenchRow[]): string {
  const withRatio = rows.some((r) => r.ratio !== null);
  const head = ['figure', ...results.map((r) => r.backend), ...(withRatio ? ['WebGPU/CPU'] : [])];
  const body = rows.map((row) => [
    row.label,
    ...row.values.map((v) => formatValue(row, v)),
    ...(withRatio ? [formatRatio(row.ratio)] : []),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((cells) => cells[c].length)));
  const line = (cells: string[]) =>
    cells
      .map((s, c) => (c === 0 ? s.padEnd(widths[c]) : s.padStart(widths[c])))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
