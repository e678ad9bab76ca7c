// Every trainer setting the page's URL or the command line sets, declared once: its GrpoConfig
// field, its names there, its bounds, where its default comes from and what it means. The URL
// codec (src/app/experiment-params.ts), the CLI's flags (cli/experiment-config.ts), a run's
// RunSpec and config (src/run/) and the docs are made from this table; the rules between settings
// sit below it.
import type { CollapseScenario } from '../tasks/index.ts';
import { DEFAULT_GRPO, distills, type GrpoConfig } from './config.ts';

type NumericKey = {
  [K in keyof GrpoConfig]-?: GrpoConfig[K] extends number ? K : never;
}[keyof GrpoConfig];

type ScenarioSetting = {
  [K in keyof CollapseScenario]-?: CollapseScenario[K] extends number ? K : never;
}[keyof CollapseScenario];

/** A setting as the table declares it. */
interface SettingDeclaration {
  /** The GrpoConfig field it sets (lrDecay: as a share of the run, see lrDecayOver). */
  readonly key: NumericKey | 'lrDecay';
  /**
   * Its one name, where it is not `key` (GrpoConfig's field names are kept in every saved run):
   * the URL writes it in snake_case, the command line's flag in kebab-case, the page's config
   * field is it.
   */
  readonly name?: string;
  readonly integer: boolean;
  /** Bounds the trainer takes (the command line's); Infinity where there is none above. */
  readonly min: number;
  readonly max: number;
  /** Its default where the trainer's own (DEFAULT_GRPO) is not a number. */
  readonly default?: number;
  /** The family's collapse-scenario field that is its default (per task), where there is one. */
  readonly collapse?: ScenarioSetting;
  /** What it means, in a line; `{key}` names another setting as each surface names it. */
  readonly doc: string;
  /** As a URL parameter of the page, where the page exposes it. */
  readonly url?: {
    /** Earlier names still read (old shared links), never written. */
    readonly aliases?: readonly string[];
    /** Narrower bounds and another default for the page, where it has them. */
    readonly min?: number;
    readonly max?: number;
    readonly default?: number;
    /** What the page does with it beyond `doc`. */
    readonly note?: string;
  };
  /** As a flag of `npm run experiment`, where the command line exposes it. */
  readonly cli?: {
    /** What the command line does with it beyond `doc`. */
    readonly note?: string;
  };
}

/** A setting with its spellings, each made from its name. */
export interface TrainerSetting extends Omit<SettingDeclaration, 'url' | 'cli'> {
  readonly url?: SettingDeclaration['url'] & {
    /** The URL parameter: the name in snake_case. */
    readonly name: string;
    /** Its ExperimentConfig field, where that is not `key`: the name. */
    readonly field?: string;
  };
  readonly cli?: SettingDeclaration['cli'] & {
    /** The flag: the name in kebab-case. */
    readonly flag: string;
  };
}

/** `groupSize` → `group_size` (with `_`) or `group-size` (with `-`). */
const spelled = (name: string, sep: string) => name.replace(/[A-Z]/g, (c) => sep + c.toLowerCase());

function withSpellings(d: SettingDeclaration): TrainerSetting {
  const { url, cli, ...rest } = d;
  const name = d.name ?? d.key;
  return {
    ...rest,
    ...(url
      ? { url: { ...url, name: spelled(name, '_'), ...(d.name ? { field: d.name } : {}) } }
      : {}),
    ...(cli ? { cli: { ...cli, flag: spelled(name, '-') } } : {}),
  };
}

/** The page's largest group: its kept failures stay below it. */
const PAGE_MAX_GROUP = 32;

/** A whole number from `min` up, unbounded above (a count). */
const count = (min: number) => ({ integer: true, min, max: Infinity });
/** A number from `min` up, unbounded above (a rate, a weight). */
const atLeast = (min: number) => ({ integer: false, min, max: Infinity });

/** The table, in the order the URL writes them (and the command line lists them). */
const TABLE = [
  {
    key: 'prompts',
    ...count(1),
    doc: 'prompts per step (P)',
    url: { max: 64 },
    cli: {},
  },
  {
    key: 'groupSize',
    ...count(2),
    doc: 'answers per prompt (G)',
    url: { aliases: ['group'], max: PAGE_MAX_GROUP },
    cli: {},
  },
  {
    key: 'lr',
    ...atLeast(0),
    doc: 'AdamW learning rate',
    url: { min: 1e-6, max: 1e-2 },
    cli: {},
  },
  {
    key: 'lrDecay',
    integer: false,
    min: 0,
    max: 0.99,
    default: 0,
    collapse: 'lrDecay',
    doc: "share of the run's steps, at its end, over which the learning rate falls (cosine) to a tenth; 0 = constant",
    cli: {},
  },
  {
    key: 'innerEpochs',
    ...count(1),
    doc: 'passes per batch (>1: PPO clipping)',
    cli: {},
  },
  {
    key: 'offPolicyGamma',
    name: 'shapingGamma',
    ...atLeast(0),
    doc: "γ of the shaping f(p) = p/(p + γ) on every method's shaped tokens (off-policy answers, refinements, the mentor's re-attempts in the unhinted prompt); > 0",
    cli: {},
  },
  {
    key: 'klCoef',
    name: 'kl',
    ...atLeast(0),
    doc: 'KL-to-base coefficient',
    cli: {},
  },
  {
    key: 'evalEvery',
    ...count(1),
    doc: 'steps between greedy, unhinted evals',
    url: { max: 10_000 },
    cli: {},
  },
  {
    key: 'evalDenseEvery',
    ...count(0),
    doc: 'steps between extra evals for the first {evalDenseSteps} steps after a level change, where a recovery is timed; 0: none',
    cli: {},
  },
  {
    key: 'evalDenseSteps',
    ...count(1),
    doc: 'steps after a level change that {evalDenseEvery} covers',
    cli: {},
  },
  {
    key: 'evalSize',
    ...count(1),
    doc: 'problems in the fixed eval set',
    // Smaller on the page than the CLI's 200: an eval pauses both lanes' training while it runs.
    url: { max: 1_000, default: 100 },
    cli: {},
  },
  {
    key: 'replay',
    integer: false,
    min: 0,
    max: 1,
    doc: "share of prompts from the schedule's first (easy) level after a change, while its rollouts pass",
    url: { max: 0.5 },
    cli: {},
  },
  {
    key: 'replayMax',
    integer: false,
    min: 0,
    max: 1,
    collapse: 'replayMax',
    doc: 'share of prompts from the first level when its rollouts all fail, rising to it as their success falls below 90%; at or below {replay}, the share stays fixed',
    url: { max: 0.75 },
    cli: {},
  },
  {
    key: 'keepFailed',
    ...count(0),
    collapse: 'keepFailed',
    doc: 'unhelped failures a helped group keeps beside its re-attempts; below {groupSize}',
    url: { max: PAGE_MAX_GROUP - 1 },
    cli: {},
  },
  {
    key: 'distillCoef',
    name: 'distill',
    ...atLeast(0),
    collapse: 'distill',
    doc: 'weight of distillation to the starting policy (the mean log-loss on its greedy answers) on the replayed prompts and {distillPrompts} more, beside the GRPO loss (every method)',
    url: { max: 2, note: 'off while {replay} is 0' },
    cli: { note: 'needs {replay} above 0' },
  },
  {
    key: 'distillMax',
    ...atLeast(0),
    doc: "the distillation weight rises to this as the first level's rollouts fall below 90% success, as the replay share rises to {replayMax}; at or below {distillCoef}, it stays fixed",
    cli: {},
  },
  {
    key: 'distillPrompts',
    ...count(0),
    collapse: 'distillPrompts',
    doc: 'extra prompts per step at the first level learned only by distillation to the starting policy (no rollouts), beside the batch (every method)',
    url: { max: 64, note: 'off while {distillCoef} is 0' },
    cli: { note: 'needs {distillCoef} or {distillMax} above 0' },
  },
] as const satisfies readonly SettingDeclaration[];

type Setting = (typeof TABLE)[number];
export type SettingKey = Setting['key'];
/** An entry of the table, its key one of the table's. */
export type SettingEntry = TrainerSetting & { readonly key: SettingKey };

export const TRAINER_SETTINGS: readonly SettingEntry[] = TABLE.map(
  (d) => withSpellings(d) as SettingEntry,
);
/** A value for every setting (lrDecay as a share of the run). */
export type SettingValues = Record<SettingKey, number>;

type PageSetting = Extract<Setting, { url: object }>;
type PageFieldOf<S> = S extends { name: infer F extends string }
  ? F
  : S extends { key: infer K extends string }
    ? K
    : never;
/** The settings the page exposes, by their ExperimentConfig field. */
export type PageSettings = { [S in PageSetting as PageFieldOf<S>]: number };
export type PageSettingField = keyof PageSettings;

/** An entry the page exposes. */
export type PageEntry = SettingEntry & { readonly url: NonNullable<TrainerSetting['url']> };

export const PAGE_SETTINGS: readonly PageEntry[] = TRAINER_SETTINGS.filter(
  (s): s is PageEntry => s.url !== undefined,
);
/** An entry the command line exposes. */
export type CliEntry = SettingEntry & { readonly cli: NonNullable<TrainerSetting['cli']> };

export const CLI_SETTINGS: readonly CliEntry[] = TRAINER_SETTINGS.filter(
  (s): s is CliEntry => s.cli !== undefined,
);

export function pageField(s: SettingEntry): PageSettingField {
  return (s.url?.field ?? s.key) as PageSettingField;
}

/** The setting's default where the task's collapse scenario has none for it. */
export function plainDefault(s: SettingEntry): number {
  return s.default ?? (DEFAULT_GRPO[s.key as NumericKey] as number);
}

/** Every setting at its default where the task's collapse scenario has none (the page's base). */
export function plainSettings(): SettingValues {
  return Object.fromEntries(TRAINER_SETTINGS.map((s) => [s.key, plainDefault(s)])) as SettingValues;
}

/** Its default for a family whose collapse scenario is `scenario`, before any rule below. */
export function defaultFor(s: SettingEntry, scenario: CollapseScenario): number {
  return s.collapse ? scenario[s.collapse] : plainDefault(s);
}

function settingOf(key: string): SettingEntry {
  const s = TRAINER_SETTINGS.find((x) => x.key === key);
  if (!s) throw new Error(`settings: {${key}} names no setting`);
  return s;
}

/** `text` with each `{key}` written as `name` writes that setting. */
export function withNames(text: string, name: (s: SettingEntry) => string): string {
  return text.replace(/\{(\w+)\}/g, (_, key: string) => name(settingOf(key)));
}

/**
 * Defaults that give way to other settings where a run leaves the setting unset (the command
 * line; the page stores every value and applies its own repairs): `help` says how.
 */
export const DEPENDENT_DEFAULTS: Partial<
  Record<SettingKey, { help: string; value(scenario: number, s: SettingValues): number }>
> = {
  // The scenario's distillation lives on its replay: none without it.
  distillCoef: { help: 'and 0 with {replay} 0', value: (d, s) => (s.replay > 0 ? d : 0) },
  // The scenario's extra prompts go with any distillation.
  distillPrompts: {
    help: 'and 0 where the run does not distil',
    value: (d, s) => (distills(s) ? d : 0),
  },
  // The scenario's kept failures give way to a small group.
  keepFailed: {
    help: 'capped below the group size',
    value: (d, s) => Math.min(d, s.groupSize - 1),
  },
};

/**
 * Every setting: those `given`, else their default on `scenario` after DEPENDENT_DEFAULTS. The
 * dependent ones are resolved last, in table order (distillPrompts after distillCoef).
 */
export function resolveSettings(
  given: Partial<SettingValues>,
  scenario: CollapseScenario,
): SettingValues {
  const out: Partial<SettingValues> = {};
  const later: SettingEntry[] = [];
  for (const s of TRAINER_SETTINGS) {
    const value = given[s.key] ?? (s.collapse ? undefined : plainDefault(s));
    if (value === undefined) later.push(s);
    else out[s.key] = value;
  }
  for (const s of later) {
    const d = defaultFor(s, scenario);
    const rule = DEPENDENT_DEFAULTS[s.key];
    out[s.key] = rule ? rule.value(d, out as SettingValues) : d;
  }
  return out as SettingValues;
}

/** The settings the rules between settings read: a GrpoConfig has them as a run's settings do. */
export type RuleInputs = Pick<
  SettingValues,
  | 'offPolicyGamma'
  | 'groupSize'
  | 'keepFailed'
  | 'replay'
  | 'distillCoef'
  | 'distillMax'
  | 'distillPrompts'
>;

/** Settings that do not go together: `message` names them with `{key}`. */
export interface SettingCheck {
  holds(s: RuleInputs): boolean;
  readonly message: string;
}

/** A helped group keeps its unhelped failures beside at least one re-attempt. */
export const KEEP_FAILED_BELOW_GROUP = {
  holds: (s: Pick<RuleInputs, 'keepFailed' | 'groupSize'>) => s.keepFailed < s.groupSize,
  message: '{keepFailed} must be below {groupSize}',
} satisfies SettingCheck;

/**
 * The rules between settings, the one list: the command line refuses a run that breaks one, the
 * trainer refuses a config that does, and the page repairs what its URL gives (experiment-params).
 */
export const SETTING_CHECKS: readonly SettingCheck[] = [
  // γ = 0 would zero every shaped token's gradient (γp/(p + γ)²): a run that learns nothing from help.
  {
    holds: (s) => s.offPolicyGamma > 0,
    message: '{offPolicyGamma} must be above 0: at 0 shaped tokens teach nothing',
  },
  KEEP_FAILED_BELOW_GROUP,
  {
    holds: (s) => s.replay > 0 || !distills(s),
    message:
      '{distillCoef} and {distillMax} learn on the replayed prompts: they need {replay} above 0',
  },
  {
    holds: (s) => s.distillPrompts === 0 || distills(s),
    message:
      '{distillPrompts} are learned by distillation: it needs {distillCoef} or {distillMax} above 0',
  },
];

/** The first rule `s` breaks, in `name`'s spelling of the settings; null if none. */
export function settingConflict(s: RuleInputs, name: (s: SettingEntry) => string): string | null {
  const broken = SETTING_CHECKS.find((c) => !c.holds(s));
  return broken ? withNames(broken.message, name) : null;
}

/**
 * The distillation a run really does where the page keeps values the rules refuse (so that turning
 * replay back on brings them back): none without replay to learn on, no extra prompts without it.
 */
export function distillationDone(
  s: Pick<RuleInputs, 'replay' | 'distillCoef' | 'distillPrompts'>,
): { distillCoef: number; distillPrompts: number } {
  const distillCoef = s.replay > 0 ? s.distillCoef : 0;
  return { distillCoef, distillPrompts: distillCoef > 0 ? s.distillPrompts : 0 };
}

/** The steps over which the rate falls when the last `share` of `steps` anneals (at least one). */
export function lrDecayOver(steps: number, share: number): GrpoConfig['lrDecay'] {
  if (share <= 0) return null;
  return { from: Math.max(0, steps - Math.max(1, Math.round(steps * share))), to: steps };
}

/** The level replay draws from: the schedule's first, where there is replay. */
export function replayLevelOf(replay: number, schedule: GrpoConfig['schedule']): number | null {
  return replay > 0 ? schedule[0].level : null;
}

/**
 * The trainer's fields from every setting of a run of `steps` steps (null: no end): lrDecay, a
 * share, becomes the steps it anneals over, and replayLevel follows replay.
 */
export function trainerSettings(
  s: SettingValues,
  steps: number | null,
  schedule: GrpoConfig['schedule'],
): Pick<GrpoConfig, SettingKey | 'replayLevel'> {
  return {
    ...s,
    // A run without an end (a lane of the page) has none to anneal to.
    lrDecay: steps === null ? null : lrDecayOver(steps, s.lrDecay),
    replayLevel: replayLevelOf(s.replay, schedule),
  };
}

/** The page's settings by their keys (the page names one of them otherwise: `distill`). */
export function settingsOfPage(page: PageSettings): Partial<SettingValues> {
  const out: Partial<SettingValues> = {};
  for (const s of PAGE_SETTINGS) out[s.key] = page[pageField(s)];
  return out;
}
