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
import { markdownTable, withSection, type DocSection } from './doc-section.ts';
import { CODE_PARAMS, PARAMS, type Param } from './experiment-params.ts';

export const DOC_PATH = 'docs/url-and-presets.md';
const SECTION: DocSection = {
  path: DOC_PATH,
  begin: '<!-- url-params:begin -->',
  end: '<!-- url-params:end -->',
};
const SETTINGS_SECTION: DocSection = {
  path: DOC_PATH,
  begin: '<!-- trainer-settings:begin -->',
  end: '<!-- trainer-settings:end -->',
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
  return [
    ...PARAMS.map((p) => [
      `\`${p.url}\`${p.aliases?.length ? ` (earlier ${p.aliases.map((a) => `\`${a}\``).join(', ')})` : ''}`,
      p.values,
      defaultText(p),
      p.doc,
    ]),
    ...CODE_PARAMS.map((code) => [`\`${code.url}\``, code.values, '(none)', code.doc]),
  ];
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

/** The document with both tables between their markers replaced. */
export function withParamTable(doc: string): string {
  return withSection(withSection(doc, SECTION, paramTable()), SETTINGS_SECTION, settingTable());
}
