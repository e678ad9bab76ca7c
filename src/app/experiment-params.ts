// Every URL parameter of the experiment, declared once: its URL name, the config field it sets,
// what it accepts, its default and what it means (the trainer's settings come from their table,
// src/rl/settings.ts). The table drives decoding, encoding and the storage schema (url-state.ts),
// the defaults of the presets and the table in docs/url-and-presets.md. A value that does not fit
// is repaired with a notice, never thrown.
import * as v from 'valibot';
import { MODEL_SIZES } from '../model/config.ts';
import { DEFAULT_GRPO } from '../rl/config.ts';
import {
  KEEP_FAILED_BELOW_GROUP,
  PAGE_SETTINGS,
  defaultFor,
  pageField,
  withNames,
  type PageEntry,
  type PageSettingField,
  type SettingEntry,
} from '../rl/settings.ts';
import {
  MAX_SCHEDULE,
  formatSchedule,
  isSchedule,
  readSchedule,
  type LevelChange,
} from '../rl/level-schedule.ts';
import { methodRunsOn } from '../run/run-spec.ts';
import { familyEntry } from '../tasks/index.ts';
import {
  BACKEND_PREFS,
  HIDEABLE,
  LANE_METHODS,
  PAGE_TASKS,
  SPEEDS,
  TEACHING_PRESETS,
  type ExperimentConfig,
  type LaneMethod,
  type PageTask,
} from './experiment-config.ts';

type Field = keyof ExperimentConfig;

/** One URL parameter. `decode` never throws: what it cannot use it reports in `notices`. */
export interface Param<K extends Field = Field> {
  readonly url: string;
  /** Earlier names still read (old shared links), never written. */
  readonly aliases?: readonly string[];
  readonly field: K;
  /** The values it takes and what it means, for the docs. */
  readonly values: string;
  readonly doc: string;
  /** Its value before any preset or URL changes it; some depend on the task. */
  readonly default: (task: PageTask) => ExperimentConfig[K];
  /** Set back to its default for the new task whenever the task changes. */
  readonly followsTask?: boolean;
  /** The config with the decoded value in it, where setting the field alone is not enough. */
  readonly apply?: (c: ExperimentConfig, value: ExperimentConfig[K]) => ExperimentConfig;
  readonly schema: v.GenericSchema<ExperimentConfig[K]>;
  decode(raw: string, c: ExperimentConfig, notices: string[]): ExperimentConfig[K];
  encode(value: ExperimentConfig[K]): string;
}

/** A value shown back only when it is short and harmless; otherwise a description of it. */
export function quote(raw: string): string {
  if (/^[A-Za-z0-9_.:,+-]{1,24}$/.test(raw)) return `"${raw}"`;
  if (raw.length > 24) return 'a long value';
  return 'an invalid value';
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(6)));
}

/** For the docs: small limits in exponent form (1e-6 rather than 0.000001). */
function limitText(n: number): string {
  return n > 0 && n < 1e-3 ? n.toExponential() : fmt(n);
}

const constant =
  <T>(value: T) =>
  (): T =>
    value;

type NumericField = {
  [K in Field]: ExperimentConfig[K] extends number ? K : never;
}[Field];

/** A numeric parameter, with the limits the page's inputs take. */
type NumberParam<K extends NumericField> = Param<K> & {
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
};

function numberParam<K extends NumericField>(p: {
  url: string;
  aliases?: readonly string[];
  field: K;
  integer: boolean;
  min: number;
  max: number;
  default: (task: PageTask) => number;
  followsTask?: boolean;
  doc: string;
}): NumberParam<K> {
  const { url, min, max, integer } = p;
  const schema = integer
    ? v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max))
    : v.pipe(v.number(), v.finite(), v.minValue(min), v.maxValue(max));
  return {
    ...p,
    values: `${integer ? 'integer ' : ''}${limitText(min)} … ${limitText(max)}`,
    schema: schema as v.GenericSchema<ExperimentConfig[K]>,
    decode(raw, c, notices) {
      const fallback = c[p.field] as number;
      const text = raw.trim();
      let n = text === '' || text.length > 32 ? NaN : Number(text);
      if (Number.isNaN(n)) {
        notices.push(`${url}: ${quote(raw)} is not a number; kept ${fmt(fallback)}`);
        return fallback as ExperimentConfig[K];
      }
      if (integer && Number.isFinite(n) && !Number.isInteger(n)) {
        const r = Math.round(n);
        notices.push(`${url}: ${quote(raw)} is not a whole number; rounded to ${fmt(r)}`);
        n = r;
      }
      if (n < min || n > max) {
        const clamped = n < min ? min : max;
        const side = n < min ? 'below the minimum' : 'above the maximum';
        notices.push(`${url}: ${quote(raw)} is ${side}; using ${fmt(clamped)}`);
        n = clamped;
      }
      // -0 reads as 0: the URL writes it as "0", and a config must read back as it was.
      return (n + 0) as ExperimentConfig[K];
    },
    encode: (value) => String(value),
  };
}

type ChoiceField = {
  [K in Field]: ExperimentConfig[K] extends string ? K : never;
}[Field];

function choiceParam<K extends ChoiceField>(p: {
  url: string;
  field: K;
  choices: readonly ExperimentConfig[K][];
  default: (task: PageTask) => ExperimentConfig[K];
  apply?: Param<K>['apply'];
  doc: string;
}): Param<K> & { readonly choices: readonly ExperimentConfig[K][] } {
  const schema = v.picklist(p.choices as unknown as string[]);
  return {
    ...p,
    values: p.choices.map((x) => `\`${x}\``).join(', '),
    schema: schema as unknown as v.GenericSchema<ExperimentConfig[K]>,
    decode(raw, c, notices) {
      const r = v.safeParse(schema, raw);
      if (r.success) return r.output as ExperimentConfig[K];
      notices.push(
        `${p.url}: ${quote(raw)} is not one of ${p.choices.join(', ')}; using ${c[p.field]}`,
      );
      return c[p.field];
    },
    encode: (value) => value,
  };
}

const MethodSchema = v.picklist(LANE_METHODS);

const methods: Param<'methods'> = {
  url: 'methods',
  field: 'methods',
  values: `two of ${LANE_METHODS.map((m) => `\`${m}\``).join(', ')}, e.g. \`none,mentor\``,
  doc: 'method of lane A and lane B',
  default: constant<[LaneMethod, LaneMethod]>(['none', 'mentor']),
  schema: v.tuple([MethodSchema, MethodSchema]),
  decode(raw, c, notices) {
    const parts = raw.split(',');
    if (parts.length > 2) notices.push(`methods: only the first two of ${parts.length} are used`);
    const out: [LaneMethod, LaneMethod] = [...c.methods];
    for (let i = 0; i < Math.min(2, parts.length); i++) {
      const r = v.safeParse(MethodSchema, parts[i].trim());
      if (r.success) out[i] = r.output;
      else
        notices.push(
          `methods: lane ${i === 0 ? 'A' : 'B'} ${quote(parts[i])} is not one of ${LANE_METHODS.join(', ')}; using ${c.methods[i]}`,
        );
    }
    return out;
  },
  encode: (value) => value.join(','),
};

/** The schedule a task starts from: its easy level; the learner raises the difficulty. */
export function startSchedule(task: PageTask): LevelChange[] {
  return [{ step: 0, level: familyEntry(task).collapse.easy }];
}

const LevelChangeSchema = v.strictObject({
  step: v.pipe(v.number(), v.integer(), v.minValue(0)),
  level: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

const schedule: Param<'schedule'> = {
  url: 'schedule',
  field: 'schedule',
  values: '`step:level,…`, e.g. `0:3,120:4`',
  doc: 'difficulty over steps; slider moves are recorded here',
  default: startSchedule,
  followsTask: true,
  schema: v.pipe(v.array(LevelChangeSchema), v.minLength(1), v.maxLength(MAX_SCHEDULE)),
  /** Lenient: bad entries dropped, levels moved into the task's range, the start level added. */
  decode(raw, c, notices) {
    const fallback = c.schedule;
    const { min, max } = familyEntry(c.task).family.levels;
    if (raw.split(',').length > MAX_SCHEDULE) {
      notices.push(
        `schedule: more than ${MAX_SCHEDULE} changes; kept the schedule ${formatSchedule(fallback)}`,
      );
      return fallback;
    }
    const { changes, malformed } = readSchedule(raw);
    const bad = malformed.length;
    if (bad)
      notices.push(
        `schedule: ignored ${bad} entr${bad === 1 ? 'y' : 'ies'} that are not step:level`,
      );
    const moved = changes.filter((x) => x.level < min || x.level > max).length;
    if (moved)
      notices.push(`schedule: ${moved} level${moved === 1 ? '' : 's'} moved into ${min}–${max}`);
    if (changes.length === 0) {
      if (!bad) notices.push(`schedule: empty; kept ${formatSchedule(fallback)}`);
      return fallback;
    }
    if (changes[0].step !== 0) {
      const start = startSchedule(c.task)[0];
      changes.unshift(start);
      notices.push(`schedule: added the start level ${start.level} at step 0`);
    }
    const out: LevelChange[] = [];
    for (const x of changes) {
      const level = Math.min(max, Math.max(min, x.level));
      if (out.length && out[out.length - 1].level === level) continue;
      out.push({ step: x.step, level });
    }
    return out;
  },
  encode: formatSchedule,
};

const HideSchema = v.picklist(HIDEABLE);

const hide: Param<'hide'> = {
  url: 'hide',
  field: 'hide',
  values: 'comma list of ' + HIDEABLE.map((h) => `\`${h}\``).join(', '),
  doc: 'controls to hide when the page is embedded',
  default: () => [],
  schema: v.pipe(v.array(HideSchema), v.maxLength(HIDEABLE.length)),
  decode(raw, _c, notices) {
    const out: ExperimentConfig['hide'] = [];
    const unknown: string[] = [];
    for (const part of raw.split(',')) {
      const name = part.trim();
      if (!name) continue;
      const r = v.safeParse(HideSchema, name);
      if (!r.success) unknown.push(quote(name));
      else if (!out.includes(r.output)) out.push(r.output);
    }
    if (unknown.length)
      notices.push(
        `hide: ignored ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ' and more' : ''} (known: ${HIDEABLE.join(', ')})`,
      );
    return out;
  },
  encode: (value) => value.join(','),
};

/** A trainer setting as a URL parameter: its entry in src/rl/settings.ts, with the page's bounds. */
function settingParam(s: PageEntry): NumberParam<PageSettingField> {
  const { url } = s;
  const name = (ref: SettingEntry) => {
    if (!ref.url) throw new Error(`${url.name}: its doc names ${ref.key}, which the page lacks`);
    return `\`${ref.url.name}\``;
  };
  return numberParam({
    url: url.name,
    aliases: url.aliases,
    field: pageField(s),
    integer: s.integer,
    min: url.min ?? s.min,
    max: url.max ?? s.max,
    default: (task) => url.default ?? defaultFor(s, familyEntry(task).collapse),
    followsTask: s.collapse !== undefined,
    doc: withNames(url.note ? `${s.doc}; ${url.note}` : s.doc, name),
  });
}

const SETTING_PARAMS = Object.fromEntries(
  PAGE_SETTINGS.map((s) => [pageField(s), settingParam(s)]),
) as Record<PageSettingField, NumberParam<PageSettingField>>;

/** Numeric parameters, by field: the page's inputs take their limits from here. */
export const NUMERIC_PARAMS = {
  seed: numberParam({
    url: 'seed',
    field: 'seed',
    integer: true,
    min: 0,
    max: 2_147_483_647,
    default: constant(DEFAULT_GRPO.seed),
    doc: 'run seed (problems and sampling), shared by both lanes',
  }),
  ...SETTING_PARAMS,
};
export type NumericParamField = keyof typeof NUMERIC_PARAMS;

/** The table, in the order parameters are read and written. */
export const PARAMS: readonly Param[] = [
  choiceParam({
    url: 'preset',
    field: 'preset',
    choices: TEACHING_PRESETS,
    default: constant('collapse' as const),
    doc: 'teaching preset: the defaults for everything below',
  }),
  choiceParam({
    url: 'task',
    field: 'task',
    choices: PAGE_TASKS,
    default: constant('arithmetic' as const),
    // Another task moves the fields that follow it (its start level, its kept failures).
    apply: (c, task) => (task === c.task ? c : withTask(c, task)),
    doc: 'task family (and its shipped base policy); `custom`: your own, written in the Custom task panel, its base warmed up there',
  }),
  methods,
  NUMERIC_PARAMS.seed,
  choiceParam({
    url: 'model',
    field: 'model',
    choices: MODEL_SIZES,
    default: constant('tiny' as const),
    doc: 'model size: base policy `checkpoints/<task>-<model>.safetensors`',
  }),
  schedule,
  ...Object.values(SETTING_PARAMS),
  choiceParam({
    url: 'speed',
    field: 'speed',
    choices: SPEEDS,
    default: constant('live' as const),
    doc: 'redraw rate',
  }),
  choiceParam({
    url: 'backend',
    field: 'backend',
    choices: BACKEND_PREFS,
    default: constant('auto' as const),
    doc: '`auto`: on a hardware adapter the faster of WebGPU and the CPU twin, timed on a step at start; on a software one (or none) the CPU twin',
  }),
  numberParam({
    url: 'threads',
    field: 'threads',
    integer: true,
    min: 0,
    max: 64,
    default: constant(0),
    doc: "threads each lane's CPU twin splits its kernels across, where the page is cross-origin isolated (else one, and the backend badge says why); `0`: the machine's cores, at most 4; `1`: one thread",
  }),
  hide,
] as Param[];

/**
 * The custom mentor's code in a shared link. Not an experiment setting: the page reads it apart
 * (src/app/shared-code.ts), since it is long and decompressed asynchronously, and shows it to the
 * person before anything runs it.
 */
export const MENTOR_CODE_PARAM = {
  url: 'mentor_code',
  values: 'the code, deflate-raw compressed and base64url',
  doc: "the custom mentor's code, shown in its editor; it runs only once the person presses **Run this code**",
} as const;

/** The custom task's code in a link, as the mentor's: read apart, never run before consent. */
export const TASK_CODE_PARAM = {
  url: 'task_code',
  values: MENTOR_CODE_PARAM.values,
  doc: "the custom task's code, shown in its editor; it runs only once the person presses **Check this code**",
} as const;

/** The parameters that carry code (shared-code.ts). */
export const CODE_PARAMS = [MENTOR_CODE_PARAM, TASK_CODE_PARAM] as const;
export type CodeParam = (typeof CODE_PARAMS)[number];

/** A rule across fields, with the repair the URL decoder applies when a value breaks it. */
export interface CrossRule {
  readonly message: string;
  holds(c: ExperimentConfig): boolean;
  /** Makes the rule hold; returns the notice. */
  repair(c: ExperimentConfig): string;
}

export const CROSS_RULES: readonly CrossRule[] = [
  {
    message: 'keep_failed must be below the group size',
    holds: (c) => KEEP_FAILED_BELOW_GROUP.holds(c),
    repair(c) {
      const was = c.keepFailed;
      c.keepFailed = c.groupSize - 1;
      return `keep_failed: ${was} must be below the group size ${c.groupSize}; using ${c.keepFailed}`;
    },
  },
  {
    message: 'the schedule must start at step 0, rise in steps and stay within the task levels',
    holds: (c) => isSchedule(c.schedule, familyEntry(c.task).family.levels),
    repair(c) {
      c.schedule = startSchedule(c.task);
      return `schedule: does not fit ${c.task}; using ${formatSchedule(c.schedule)}`;
    },
  },
  {
    message: 'a method whose lessons are made of working needs a task that writes working',
    holds: (c) => c.methods.every((m) => laneRunsOn(m, c.task)),
    repair(c) {
      const was = c.methods.filter((m) => !laneRunsOn(m, c.task));
      c.methods = [0, 1].map((i) =>
        laneRunsOn(c.methods[i], c.task) ? c.methods[i] : 'mentor',
      ) as [LaneMethod, LaneMethod];
      return `methods: ${was.join(', ')} teach with working, which ${c.task} does not write; using mentor`;
    },
  },
];

/** Whether a lane's method runs on the task (for the page's menus; the rule is the run layer's). */
export function laneRunsOn(method: LaneMethod, task: PageTask): boolean {
  return methodRunsOn(method, task);
}

/** Every field at its default for this task (a preset then changes some). */
export function defaultConfig(task: PageTask): ExperimentConfig {
  const c: Partial<Record<Field, unknown>> = {};
  for (const p of PARAMS) c[p.field] = p.default(task);
  return { ...(c as ExperimentConfig), task };
}

/** Repairs what breaks a cross-field rule; the notices say what changed. */
export function repairRules(c: ExperimentConfig): string[] {
  return CROSS_RULES.filter((r) => !r.holds(c)).map((r) => r.repair(c));
}

/** The config moved to another task: the fields that follow the task go to its defaults. */
export function withTask(c: ExperimentConfig, task: PageTask): ExperimentConfig {
  const next: Record<string, unknown> = { ...c, task };
  for (const p of PARAMS) if (p.followsTask) next[p.field] = p.default(task);
  const moved = next as unknown as ExperimentConfig;
  repairRules(moved);
  return moved;
}
