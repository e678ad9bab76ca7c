// The experiment in the URL: `?preset=collapse&task=arithmetic&methods=none,mentor&seed=1&…`.
// Decoding never throws. Every parameter is read by its entry in experiment-params.ts; a bad
// value is clamped or dropped and a notice says what changed. Notices never repeat a raw value
// unless it is short and made of safe characters, so a hostile URL cannot put its text on the page.
import * as v from 'valibot';
import { distillationOf, type ExperimentConfig } from './experiment-config.ts';
import { CROSS_RULES, CODE_PARAMS, PARAMS, quote, repairRules } from './experiment-params.ts';
import { DEFAULT_PRESET, presetConfig } from './presets.ts';

export { quote };

/** Longer query strings are ignored as a whole. */
export const MAX_QUERY_LENGTH = 4096;
/** Longer single values are rejected without being read. */
export const MAX_VALUE_LENGTH = 256;

/** The whole config; also used to check configs read back from storage. */
const brokenRule = (c: unknown) => CROSS_RULES.find((r) => !r.holds(c as ExperimentConfig));
export const ExperimentSchema = v.pipe(
  v.strictObject(Object.fromEntries(PARAMS.map((p) => [p.field, p.schema]))),
  v.check(
    (c) => brokenRule(c) === undefined,
    (issue) => brokenRule(issue.input)?.message ?? 'a rule across fields is broken',
  ),
);

export interface DecodedUrl {
  config: ExperimentConfig;
  /** What was clamped, dropped or ignored, in plain words; empty when the URL was clean. */
  notices: string[];
  /** Whether the URL named any experiment parameter at all. */
  explicit: boolean;
}

// `mentor_code` and `task_code` are read apart (shared-code.ts), but are no strangers here.
const KNOWN_NAMES = new Set([
  ...PARAMS.flatMap((p) => [p.url, ...(p.aliases ?? [])]),
  ...CODE_PARAMS.map((p) => p.url),
]);

/** Read the experiment from a query string (`location.search`); never throws. */
export function decodeUrl(search: string): DecodedUrl {
  const fallback = (notice: string): DecodedUrl => ({
    config: presetConfig(DEFAULT_PRESET),
    notices: [notice],
    explicit: false,
  });
  if (search.length > MAX_QUERY_LENGTH)
    return fallback(`The URL's parameters are ${search.length} characters long; all were ignored.`);
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(search);
  } catch {
    return fallback('The URL could not be read; using the default experiment.');
  }
  const notices: string[] = [];
  /** The value under the parameter's name, or else under an earlier name of it. */
  const get = (names: readonly string[]): string | null => {
    const name = names.find((n) => params.has(n));
    if (name === undefined) return null;
    const all = params.getAll(name);
    if (all.length > 1) notices.push(`${name}: given ${all.length} times; used the first`);
    if (all[0].length > MAX_VALUE_LENGTH) {
      notices.push(`${name}: the value is ${all[0].length} characters long; ignored`);
      return null;
    }
    return all[0];
  };

  const unknown = [...new Set(params.keys())].filter((k) => !KNOWN_NAMES.has(k));
  if (unknown.length)
    notices.push(
      `Ignored unknown parameter${unknown.length === 1 ? '' : 's'} ${unknown
        .slice(0, 5)
        .map(quote)
        .join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}`,
    );
  const explicit = [...params.keys()].some((k) => KNOWN_NAMES.has(k));

  // The preset is the starting point; every other parameter changes it, in the table's order.
  const [presetParam, ...rest] = PARAMS;
  const base = presetConfig(DEFAULT_PRESET);
  const presetRaw = get([presetParam.url]);
  const preset =
    presetRaw === null
      ? DEFAULT_PRESET
      : (presetParam.decode(presetRaw, base, notices) as ExperimentConfig['preset']);
  let c = presetConfig(preset);
  for (const p of rest) {
    const raw = get([p.url, ...(p.aliases ?? [])]);
    if (raw === null) continue;
    const value = p.decode(raw, c, notices);
    c = p.apply ? p.apply(c, value) : { ...c, [p.field]: value };
  }
  notices.push(...repairRules(c));

  const checked = v.safeParse(ExperimentSchema, c);
  if (!checked.success) {
    // Unreachable when every field was decoded above; never let it through anyway.
    return {
      config: presetConfig(preset),
      notices: [...notices, 'The settings did not check out; using the preset as it is.'],
      explicit,
    };
  }
  return { config: checked.output as unknown as ExperimentConfig, notices, explicit };
}

/** The experiment as a query string (with the leading `?`); decodeUrl reads it back unchanged. */
export function encodeUrl(c: ExperimentConfig): string {
  const parts = PARAMS.filter((p) => p.field !== 'hide' || c.hide.length > 0).map((p) => {
    const value = (p.encode as (x: unknown) => string)(c[p.field]);
    return `${p.url}=${encodeURIComponent(value).replace(/%3A/g, ':').replace(/%2C/g, ',')}`;
  });
  return `?${parts.join('&')}`;
}

/**
 * Two configs describe the same training run: view settings (speed, hide) aside, and settings
 * that do nothing in it (distillation without replay, its extra prompts without distillation).
 */
export function sameExperiment(a: ExperimentConfig, b: ExperimentConfig): boolean {
  const strip = (c: ExperimentConfig) =>
    encodeUrl({ ...c, ...distillationOf(c), speed: 'live', hide: [] });
  return strip(a) === strip(b);
}
