// The experiment in the URL: `?preset=collapse&task=arithmetic&methods=none,mentor&seed=1&…`.
// Decoding never throws. Every value is checked against a valibot schema; a bad one is clamped or
// dropped and a notice says what changed. Notices never repeat a raw value unless it is short and
// made of safe characters, so a hostile URL cannot put its text on the page.
import * as v from 'valibot';
import {
  BACKEND_PREFS,
  FAMILY_IDS,
  HIDEABLE,
  LIMITS,
  MAX_SCHEDULE,
  MAX_STEP,
  METHODS,
  MODEL_PRESETS,
  SPEEDS,
  formatSchedule,
  levelRange,
  type ExperimentConfig,
  type FamilyId,
  type Hideable,
  type LevelChange,
  type Method,
  type NumericField,
} from './experiment-config.ts';
import { DEFAULT_PRESET, PRESET_IDS, presetConfig, startSchedule } from './presets.ts';

/** Longer query strings are ignored as a whole. */
export const MAX_QUERY_LENGTH = 4096;
/** Longer single values are rejected without being read. */
export const MAX_VALUE_LENGTH = 256;

const integerIn = (min: number, max: number) =>
  v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const numberIn = (min: number, max: number) =>
  v.pipe(v.number(), v.finite(), v.minValue(min), v.maxValue(max));
const numeric = (f: NumericField) =>
  LIMITS[f].integer
    ? integerIn(LIMITS[f].min, LIMITS[f].max)
    : numberIn(LIMITS[f].min, LIMITS[f].max);

const MethodSchema = v.picklist(METHODS);
const LevelChangeSchema = v.strictObject({
  step: integerIn(0, MAX_STEP),
  level: integerIn(1, 1000),
});

/** The whole config; also used to check configs read back from storage. */
export const ExperimentSchema = v.pipe(
  v.strictObject({
    preset: v.picklist(PRESET_IDS),
    task: v.picklist(FAMILY_IDS),
    methods: v.tuple([MethodSchema, MethodSchema]),
    seed: numeric('seed'),
    model: v.picklist(MODEL_PRESETS),
    schedule: v.pipe(v.array(LevelChangeSchema), v.minLength(1), v.maxLength(MAX_SCHEDULE)),
    prompts: numeric('prompts'),
    groupSize: numeric('groupSize'),
    lr: numeric('lr'),
    evalEvery: numeric('evalEvery'),
    evalSize: numeric('evalSize'),
    replay: numeric('replay'),
    keepFailed: numeric('keepFailed'),
    speed: v.picklist(SPEEDS),
    backend: v.picklist(BACKEND_PREFS),
    hide: v.pipe(v.array(v.picklist(HIDEABLE)), v.maxLength(HIDEABLE.length)),
  }),
  v.check((c) => {
    const { min, max } = levelRange(c.task);
    return (
      c.schedule[0].step === 0 &&
      c.schedule.every(
        (x, i) => x.level >= min && x.level <= max && (i === 0 || x.step > c.schedule[i - 1].step),
      )
    );
  }, 'the schedule must start at step 0, rise in steps and stay within the task levels'),
  v.check((c) => c.keepFailed < c.groupSize, 'keep_failed must be below the group size'),
);

export interface DecodedUrl {
  config: ExperimentConfig;
  /** What was clamped, dropped or ignored, in plain words; empty when the URL was clean. */
  notices: string[];
  /** Whether the URL named any experiment parameter at all. */
  explicit: boolean;
}

/** URL parameter name → config field, in the order they are written. */
export const PARAMS = {
  preset: 'preset',
  task: 'task',
  methods: 'methods',
  seed: 'seed',
  model: 'model',
  schedule: 'schedule',
  prompts: 'prompts',
  group: 'groupSize',
  lr: 'lr',
  eval_every: 'evalEvery',
  eval_size: 'evalSize',
  replay: 'replay',
  keep_failed: 'keepFailed',
  speed: 'speed',
  backend: 'backend',
  hide: 'hide',
} as const satisfies Record<string, keyof ExperimentConfig>;
type ParamName = keyof typeof PARAMS;
const PARAM_NAMES = Object.keys(PARAMS) as ParamName[];

/** A value shown back only when it is short and harmless; otherwise a description of it. */
export function quote(raw: string): string {
  if (/^[A-Za-z0-9_.:,+-]{1,24}$/.test(raw)) return `"${raw}"`;
  if (raw.length > 24) return 'a long value';
  return 'an invalid value';
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(6)));
}

function decodeNumber(
  name: string,
  field: NumericField,
  raw: string,
  fallback: number,
  notices: string[],
): number {
  const { min, max, integer } = LIMITS[field];
  const text = raw.trim();
  if (text.length > 32) {
    notices.push(`${name}: ${quote(raw)} is not a number; kept ${fmt(fallback)}`);
    return fallback;
  }
  let n = text === '' ? NaN : Number(text);
  if (Number.isNaN(n)) {
    notices.push(`${name}: ${quote(raw)} is not a number; kept ${fmt(fallback)}`);
    return fallback;
  }
  if (integer && Number.isFinite(n) && !Number.isInteger(n)) {
    const r = Math.round(n);
    notices.push(`${name}: ${quote(raw)} is not a whole number; rounded to ${fmt(r)}`);
    n = r;
  }
  if (n < min || n > max) {
    const c = n < min ? min : max;
    notices.push(
      `${name}: ${quote(raw)} is ${n < min ? 'below the minimum' : 'above the maximum'}; using ${fmt(c)}`,
    );
    n = c;
  }
  const ok = v.safeParse(numeric(field), n);
  return ok.success ? ok.output : fallback;
}

function decodeChoice<T extends string>(
  name: string,
  raw: string,
  choices: readonly T[],
  fallback: T,
  notices: string[],
): T {
  const r = v.safeParse(v.picklist(choices), raw);
  if (r.success) return r.output;
  notices.push(`${name}: ${quote(raw)} is not one of ${choices.join(', ')}; using ${fallback}`);
  return fallback;
}

function decodeMethods(
  raw: string,
  fallback: [Method, Method],
  notices: string[],
): [Method, Method] {
  const parts = raw.split(',');
  if (parts.length > 2) notices.push(`methods: only the first two of ${parts.length} are used`);
  const out: [Method, Method] = [...fallback];
  for (let i = 0; i < Math.min(2, parts.length); i++) {
    const r = v.safeParse(MethodSchema, parts[i].trim());
    if (r.success) out[i] = r.output;
    else
      notices.push(
        `methods: lane ${i === 0 ? 'A' : 'B'} ${quote(parts[i])} is not one of ${METHODS.join(', ')}; using ${fallback[i]}`,
      );
  }
  return out;
}

/** "0:3,120:4" → a clean schedule within the task's levels (first change at step 0). */
export function decodeSchedule(
  raw: string,
  task: FamilyId,
  fallback: LevelChange[],
  notices: string[],
): LevelChange[] {
  const { min, max } = levelRange(task);
  const parts = raw.split(',');
  if (parts.length > MAX_SCHEDULE) {
    notices.push(
      `schedule: more than ${MAX_SCHEDULE} changes; kept the schedule ${formatSchedule(fallback)}`,
    );
    return fallback;
  }
  const byStep = new Map<number, number>();
  let bad = 0;
  let clamped = 0;
  for (const part of parts) {
    const m = /^\s*(\d{1,8})\s*:\s*(\d{1,4})\s*$/.exec(part);
    if (!m || Number(m[1]) > MAX_STEP) {
      bad++;
      continue;
    }
    let level = Number(m[2]);
    if (level < min || level > max) {
      level = Math.min(max, Math.max(min, level));
      clamped++;
    }
    byStep.set(Number(m[1]), level);
  }
  if (bad)
    notices.push(`schedule: ignored ${bad} entr${bad === 1 ? 'y' : 'ies'} that are not step:level`);
  if (clamped)
    notices.push(`schedule: ${clamped} level${clamped === 1 ? '' : 's'} moved into ${min}–${max}`);
  if (byStep.size === 0) {
    if (!bad) notices.push(`schedule: empty; kept ${formatSchedule(fallback)}`);
    return fallback;
  }
  if (!byStep.has(0)) {
    const start = startSchedule(task)[0].level;
    byStep.set(0, start);
    notices.push(`schedule: added the start level ${start} at step 0`);
  }
  const sorted = [...byStep.entries()].sort((a, b) => a[0] - b[0]);
  const out: LevelChange[] = [];
  for (const [step, level] of sorted) {
    if (out.length && out[out.length - 1].level === level) continue;
    out.push({ step, level });
  }
  return out;
}

function decodeHide(raw: string, notices: string[]): Hideable[] {
  const out: Hideable[] = [];
  const unknown: string[] = [];
  for (const part of raw.split(',')) {
    const name = part.trim();
    if (!name) continue;
    const r = v.safeParse(v.picklist(HIDEABLE), name);
    if (r.success) {
      if (!out.includes(r.output)) out.push(r.output);
    } else unknown.push(quote(name));
  }
  if (unknown.length)
    notices.push(
      `hide: ignored ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ' and more' : ''} (known: ${HIDEABLE.join(', ')})`,
    );
  return out;
}

/** Read the experiment from a query string (`location.search`); never throws. */
export function decodeUrl(search: string): DecodedUrl {
  const notices: string[] = [];
  if (search.length > MAX_QUERY_LENGTH) {
    return {
      config: presetConfig(DEFAULT_PRESET),
      notices: [`The URL's parameters are ${search.length} characters long; all were ignored.`],
      explicit: false,
    };
  }
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(search);
  } catch {
    return {
      config: presetConfig(DEFAULT_PRESET),
      notices: ['The URL could not be read; using the default experiment.'],
      explicit: false,
    };
  }
  const get = (name: ParamName): string | null => {
    const all = params.getAll(name);
    if (all.length === 0) return null;
    if (all.length > 1) notices.push(`${name}: given ${all.length} times; used the first`);
    if (all[0].length > MAX_VALUE_LENGTH) {
      notices.push(`${name}: the value is ${all[0].length} characters long; ignored`);
      return null;
    }
    return all[0];
  };

  const unknown = [...new Set(params.keys())].filter((k) => !(PARAM_NAMES as string[]).includes(k));
  if (unknown.length)
    notices.push(
      `Ignored unknown parameter${unknown.length === 1 ? '' : 's'} ${unknown
        .slice(0, 5)
        .map(quote)
        .join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}`,
    );
  const explicit = PARAM_NAMES.some((k) => params.has(k));

  const presetRaw = get('preset');
  const preset =
    presetRaw === null
      ? DEFAULT_PRESET
      : decodeChoice('preset', presetRaw, PRESET_IDS, DEFAULT_PRESET, notices);
  const c = presetConfig(preset);

  const task = get('task');
  if (task !== null) {
    const t = decodeChoice('task', task, FAMILY_IDS, c.task, notices);
    if (t !== c.task) {
      c.task = t;
      c.schedule = startSchedule(t);
    }
  }
  const methods = get('methods');
  if (methods !== null) c.methods = decodeMethods(methods, c.methods, notices);
  const model = get('model');
  if (model !== null) c.model = decodeChoice('model', model, MODEL_PRESETS, c.model, notices);
  const schedule = get('schedule');
  if (schedule !== null) c.schedule = decodeSchedule(schedule, c.task, c.schedule, notices);
  const numbers: [ParamName, NumericField][] = [
    ['seed', 'seed'],
    ['prompts', 'prompts'],
    ['group', 'groupSize'],
    ['lr', 'lr'],
    ['eval_every', 'evalEvery'],
    ['eval_size', 'evalSize'],
    ['replay', 'replay'],
    ['keep_failed', 'keepFailed'],
  ];
  for (const [name, field] of numbers) {
    const raw = get(name);
    if (raw !== null) c[field] = decodeNumber(name, field, raw, c[field], notices);
  }
  if (c.keepFailed >= c.groupSize) {
    notices.push(
      `keep_failed: ${c.keepFailed} must be below the group size ${c.groupSize}; using ${c.groupSize - 1}`,
    );
    c.keepFailed = c.groupSize - 1;
  }
  const speed = get('speed');
  if (speed !== null) c.speed = decodeChoice('speed', speed, SPEEDS, c.speed, notices);
  const backend = get('backend');
  if (backend !== null)
    c.backend = decodeChoice('backend', backend, BACKEND_PREFS, c.backend, notices);
  const hide = get('hide');
  if (hide !== null) c.hide = decodeHide(hide, notices);

  const checked = v.safeParse(ExperimentSchema, c);
  if (!checked.success) {
    // Unreachable when every field was decoded above; never let it through anyway.
    return {
      config: presetConfig(preset),
      notices: [...notices, 'The settings did not check out; using the preset as it is.'],
      explicit,
    };
  }
  return { config: checked.output as ExperimentConfig, notices, explicit };
}

/** The experiment as a query string (with the leading `?`); decodeUrl reads it back unchanged. */
export function encodeUrl(c: ExperimentConfig): string {
  const values: Record<ParamName, string> = {
    preset: c.preset,
    task: c.task,
    methods: c.methods.join(','),
    seed: String(c.seed),
    model: c.model,
    schedule: formatSchedule(c.schedule),
    prompts: String(c.prompts),
    group: String(c.groupSize),
    lr: String(c.lr),
    eval_every: String(c.evalEvery),
    eval_size: String(c.evalSize),
    replay: String(c.replay),
    keep_failed: String(c.keepFailed),
    speed: c.speed,
    backend: c.backend,
    hide: c.hide.join(','),
  };
  const parts = PARAM_NAMES.filter((k) => k !== 'hide' || c.hide.length > 0).map(
    (k) => `${k}=${encodeURIComponent(values[k]).replace(/%3A/g, ':').replace(/%2C/g, ',')}`,
  );
  return `?${parts.join('&')}`;
}

/** Two configs describe the same training run (view settings — speed, hide — aside). */
export function sameExperiment(a: ExperimentConfig, b: ExperimentConfig): boolean {
  const strip = (c: ExperimentConfig) => encodeUrl({ ...c, speed: 'live', hide: [] });
  return strip(a) === strip(b);
}
