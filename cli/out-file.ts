/**
 * Where `npm run experiment --out <out>` writes until the run is complete; renamed to `<out>` after
 * the summary line, so a file at `<out>` is always a finished run and one killed mid-way is left
 * here (a table tells it apart as failed).
 */
export function partialPath(out: string): string {
  return `${out}.partial`;
}
