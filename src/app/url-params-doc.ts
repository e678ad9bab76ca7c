// The URL parameter table of docs/url-and-presets.md, made from the parameter table itself so
// the docs cannot drift from what the decoder accepts, and the table of the trainer's settings on
// the page and the command line, made from theirs (src/rl/settings.ts).
import {
  TRAINER_SETTINGS,
  defaultFor,
  plainDefault,
  withNames,
  type SettingEntry,
} from '../rl/settings.ts';
import { FAMILY_IDS, familyEntry } from '../tasks/index.ts';
import { PARAMS, type Param } from './experiment-params.ts';

export const DOC_PATH = 'docs/url-and-presets.md';
export const BEGIN = '<!-- url-params:begin -->';
export const END = '<!-- url-params:end -->';
export const SETTINGS_BEGIN = '<!-- trainer-settings:begin -->';
export const SETTINGS_END = '<!-- trainer-settings:end -->';

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

/** A setting's default: per task where the collapse scenario sets it, the page's where it differs. */
function settingDefault(s: SettingEntry): string {
  if (s.collapse)
    return FAMILY_IDS.map(
      (task) => `${task} \`${defaultFor(s, familyEntry(task).collapse)}\``,
    ).join(', ');
  const page = s.url?.default;
  return page === undefined
    ? `\`${plainDefault(s)}\``
    : `\`${page}\` (page), \`${plainDefault(s)}\` (command line)`;
}

/** The rows: GrpoConfig field, URL parameter, flag, default, meaning. */
export function settingRows(): string[][] {
  return TRAINER_SETTINGS.map((s) => [
    `\`${s.key}\``,
    s.url ? `\`${s.url.name}\`` : '—',
    s.cli ? `\`--${s.cli.flag}\`` : '—',
    settingDefault(s),
    withNames(s.doc, (ref) => `\`${ref.key}\``),
  ]);
}

export function settingTable(): string {
  return markdownTable(['setting', 'URL', 'command line', 'default', 'meaning'], settingRows());
}

/** `doc` with what lies between `begin` and `end` replaced; an error when a marker is missing. */
function between(doc: string, begin: string, end: string, table: string): string {
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from)
    throw new Error(`${DOC_PATH}: the ${begin} … ${end} markers are missing`);
  return `${doc.slice(0, from + begin.length)}\n\n${table}\n\n${doc.slice(to)}`;
}

/** The document with both tables between their markers replaced. */
export function withParamTable(doc: string): string {
  return between(
    between(doc, BEGIN, END, paramTable()),
    SETTINGS_BEGIN,
    SETTINGS_END,
    settingTable(),
  );
}
