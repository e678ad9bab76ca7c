// The URL parameter table of docs/url-and-presets.md, made from the parameter table itself so
// the docs cannot drift from what the decoder accepts.
import { FAMILY_IDS } from '../tasks/index.ts';
import { PARAMS, type Param } from './experiment-params.ts';

export const DOC_PATH = 'docs/url-and-presets.md';
export const BEGIN = '<!-- url-params:begin -->';
export const END = '<!-- url-params:end -->';

/** A parameter's default as the URL writes it; per task where it follows the task. */
function defaultText(p: Param): string {
  const text = (task: (typeof FAMILY_IDS)[number]) =>
    (p.encode as (x: unknown) => string)(p.default(task)) || '(none)';
  if (!p.followsTask) return `\`${text(FAMILY_IDS[0])}\``;
  return FAMILY_IDS.map((task) => `${task} \`${text(task)}\``).join(', ');
}

/** The rows: parameter (and earlier names), values, default, meaning. */
export function paramRows(): string[][] {
  return PARAMS.map((p) => [
    `\`${p.url}\`${p.aliases?.length ? ` (earlier ${p.aliases.map((a) => `\`${a}\``).join(', ')})` : ''}`,
    p.values,
    defaultText(p),
    p.doc,
  ]);
}

/** A Markdown table laid out as Prettier lays it out, so `prettier --check` stays clean. */
export function markdownTable(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(3, h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function paramTable(): string {
  return markdownTable(['parameter', 'values', 'default', 'meaning'], paramRows());
}

/** The document with the table between its markers replaced; an error when a marker is missing. */
export function withParamTable(doc: string): string {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin)
    throw new Error(`${DOC_PATH}: the ${BEGIN} … ${END} markers are missing`);
  return `${doc.slice(0, begin + BEGIN.length)}\n\n${paramTable()}\n\n${doc.slice(end)}`;
}
