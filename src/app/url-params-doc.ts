// The URL parameter table of docs/url-and-presets.md, made from the parameter table itself so
// the docs cannot drift from what the decoder accepts.
import { FAMILY_IDS } from '../tasks/index.ts';
import { markdownTable, withSection, type DocSection } from './doc-section.ts';
import { PARAMS, type Param } from './experiment-params.ts';

export const DOC_PATH = 'docs/url-and-presets.md';
const SECTION: DocSection = {
  path: DOC_PATH,
  begin: '<!-- url-params:begin -->',
  end: '<!-- url-params:end -->',
};

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

export function paramTable(): string {
  return markdownTable(['parameter', 'values', 'default', 'meaning'], paramRows());
}

/** The document with the table between its markers replaced; an error when a marker is missing. */
export function withParamTable(doc: string): string {
  return withSection(doc, SECTION, paramTable());
}
