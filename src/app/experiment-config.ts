// The experiment as the page knows it: everything the URL carries, the limits each field is held
// to, and plain-language names for methods and levels. Pure data; no DOM, no workers.
import type { PresetName } from '../model/config.ts';
import type { LevelChange } from '../rl/config.ts';
import { COLLAPSE } from '../rl/scenarios.ts';
import { FAMILIES, FAMILY_IDS } from '../tasks/families.ts';
import type { FamilyId } from '../tasks/types.ts';
import type { Method } from './lane/lane-types.ts';

export { FAMILY_IDS, type FamilyId, type LevelChange, type Method };
export { METHODS } from './lane/lane-types.ts';

export type ModelPreset = PresetName;
export const MODEL_PRESETS: readonly ModelPreset[] = ['tiny', 'small'];

export type BackendPref = 'auto' | 'webgpu' | 'cpu';
export const BACKEND_PREFS: readonly BackendPref[] = ['auto', 'webgpu', 'cpu'];

/**
 * How often the page redraws while the workers train flat out: `live` after every step, `fast`
 * at most once a second, `turbo` not at all until training pauses (the step counter still moves).
 */
export type Speed = 'live' | 'fast' | 'turbo';
export const SPEEDS: readonly Speed[] = ['live', 'fast', 'turbo'];
export const SPEED_LABELS: Record<Speed, string> = {
  live: 'Live: redraw every step',
  fast: 'Fast: redraw once a second',
  turbo: 'Turbo: draw only when paused',
};

/** Parts of the page a course can hide with `?hide=a,b`. */
export type Hideable =
  | 'play'
  | 'difficulty'
  | 'method'
  | 'task'
  | 'preset'
  | 'speed'
  | 'advanced'
  | 'export'
  | 'import'
  | 'log'
  | 'inspector'
  | 'llm'
  | 'diagnostics';
export const HIDEABLE: readonly Hideable[] = [
  'play',
  'difficulty',
  'method',
  'task',
  'preset',
  'speed',
  'advanced',
  'export',
  'import',
  'log',
  'inspector',
  'llm',
  'diagnostics',
];

export type TeachingPresetId = 'collapse' | 'listlang' | 'baselines' | 'quick';

export interface ExperimentConfig {
  /** The teaching preset the rest started from (the picker shows it). */
  preset: TeachingPresetId;
  task: FamilyId;
  /** Method of lane A and lane B. */
  methods: [Method, Method];
  seed: number;
  model: ModelPreset;
  /** Difficulty over steps; the first change is at step 0. Slider moves are recorded here. */
  schedule: LevelChange[];
  prompts: number;
  groupSize: number;
  lr: number;
  evalEvery: number;
  evalSize: number;
  /** Share of prompts drawn at the schedule's first level once the level has changed. */
  replay: number;
  /** Unhelped failures a helped group keeps beside its re-attempts (< groupSize). */
  keepFailed: number;
  speed: Speed;
  backend: BackendPref;
  hide: Hideable[];
}

/** Inclusive bounds of the numeric fields; values outside are clamped (with a notice). */
export const LIMITS = {
  seed: { min: 0, max: 2_147_483_647, integer: true },
  prompts: { min: 1, max: 64, integer: true },
  groupSize: { min: 2, max: 32, integer: true },
  lr: { min: 1e-6, max: 1e-2, integer: false },
  evalEvery: { min: 1, max: 10_000, integer: true },
  evalSize: { min: 1, max: 1_000, integer: true },
  replay: { min: 0, max: 0.5, integer: false },
  // Below groupSize as well; the URL codec holds it there.
  keepFailed: { min: 0, max: 31, integer: true },
} as const;
export type NumericField = keyof typeof LIMITS;

/** Schedules longer than this are cut; steps beyond MAX_STEP are dropped. */
export const MAX_SCHEDULE = 64;
export const MAX_STEP = 10_000_000;

export function levelRange(task: FamilyId): { min: number; max: number } {
  const { min, max } = FAMILIES[task].levels;
  return { min, max };
}

/** The easy → hard jump the lead engineer tuned for each family's shipped base (src/rl/scenarios). */
export function collapseLevels(task: FamilyId): { easy: number; hard: number } {
  return { easy: COLLAPSE[task].easy, hard: COLLAPSE[task].hard };
}

export function describeLevel(task: FamilyId, level: number): string {
  return task === 'arithmetic'
    ? `${level}-digit addition`
    : `${level}-op list program${level === 1 ? '' : 's'}`;
}

export const TASK_LABELS: Record<FamilyId, string> = {
  arithmetic: 'Arithmetic (column addition)',
  listlang: 'List programs (listlang)',
};

export const METHOD_LABELS: Record<Method, string> = {
  none: 'GRPO',
  static: 'GRPO + static hints',
  prefix: 'GRPO + solution prefix',
  mentor: 'GRPO + MENTOR',
};

/** Lane colours on every chart (orange: lane A, blue: lane B; distinct for colour-blind eyes). */
export const LANE_COLOURS: readonly [string, string] = ['#c2410c', '#1d4ed8'];

/** Lane names for legends and headings: the method, with A/B added when both lanes share it. */
export function laneNames(methods: readonly [Method, Method]): [string, string] {
  const [a, b] = methods.map((m) => METHOD_LABELS[m]);
  return a === b ? [`${a} (A)`, `${b} (B)`] : [a, b];
}

export function levelAt(schedule: readonly LevelChange[], step: number): number {
  let level = schedule[0]?.level ?? 1;
  for (const c of schedule) if (c.step <= step) level = c.level;
  return level;
}

/** The schedule with a change to `level` from `step` on: later entries go, a no-op adds nothing. */
export function withLevelChange(
  schedule: readonly LevelChange[],
  step: number,
  level: number,
): LevelChange[] {
  const kept = schedule.filter((c) => c.step < step);
  if (kept.length && levelAt(kept, step) === level) return kept;
  const next = [...kept, { step, level }];
  // Keep the start level; drop the oldest changes after it.
  return next.length > MAX_SCHEDULE
    ? [next[0], ...next.slice(next.length - MAX_SCHEDULE + 1)]
    : next;
}

export function formatSchedule(schedule: readonly LevelChange[]): string {
  return schedule.map((c) => `${c.step}:${c.level}`).join(',');
}
