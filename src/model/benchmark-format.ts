// How the benchmark's figures are written: `npm run bench` and the page's benchmark (its self-check
// worker formats there, so the page bundle needs no model code) write them alike.
import type { BenchOptions } from './benchmark.ts';
import type { BenchRow } from './benchmark-rows.ts';

/** What a run measured, in words, for tables that must say so. */
export function describeBench(opts: BenchOptions): string {
  return (
    `batch ${opts.batch}; training on ${opts.batch}×${opts.trainLength} tokens; ` +
    `generation of ${opts.newTokens} tokens after prompts of ${opts.promptLengths.join(' and ')} ` +
    `tokens (first token = prefill, not timed)`
  );
}

/** A figure as the tables show it: three significant digits (two below 0.1), thousands grouped. */
export function formatFigure(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x !== 0 && Math.abs(x) < 0.1) return x.toPrecision(2);
  const digits = Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : 2;
  return x.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

export function formatRatio(r: number | null): string {
  return r === null ? '' : `${formatFigure(r)}×`;
}

/** A row's value as the tables show it. */
export function formatValue(row: BenchRow, x: number): string {
  return row.isRatio ? formatRatio(x) : formatFigure(x);
}
