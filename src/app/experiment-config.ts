// The experiment as the page knows it: everything the URL carries (experiment-params.ts declares
// each parameter, the trainer's from src/rl/settings.ts) and plain-language names for lanes. Pure
// data; no DOM, no workers.
import {
  CUSTOM,
  LANE_METHODS,
  laneMethodLabel,
  type LaneMethod,
} from '../interventions/methods.ts';
import { MODEL_SIZES, type ModelSize } from '../model/config.ts';
import type { LevelChange } from '../rl/level-schedule.ts';
import { distillationDone, type PageSettings } from '../rl/settings.ts';
import { FAMILY_IDS, familyEntry, type FamilyId } from '../tasks/index.ts';
import { CUSTOM_TASK_ID, registerCustomTask } from './custom-task/page-task.ts';

export { CUSTOM, FAMILY_IDS, LANE_METHODS, MODEL_SIZES, laneMethodLabel };
export type { FamilyId, LaneMethod, LevelChange, ModelSize };

/** The page's tasks: the shipped families, and the person's own (its code runs in workers only). */
export type PageTask = FamilyId | typeof CUSTOM_TASK_ID;
export const CUSTOM_TASK = CUSTOM_TASK_ID;
export const PAGE_TASKS: readonly PageTask[] = [...FAMILY_IDS, CUSTOM_TASK];

// Until the person checks a task of their own, the custom one reads as a stand-in, so a link
// with task=custom decodes like any other.
registerCustomTask(null);

/** For the task picker. */
export function taskLabel(task: PageTask): string {
  return familyEntry(task).label;
}

/** A level in words, for the status line. */
export function describeLevel(task: PageTask, level: number): string {
  return familyEntry(task).describeLevel(level);
}

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
export const HIDEABLE = [
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
  'help',
] as const;
export type Hideable = (typeof HIDEABLE)[number];

export const TEACHING_PRESETS = [
  'collapse',
  'listlang',
  'worked',
  'baselines',
  'rivals',
  'quick',
] as const;
export type TeachingPresetId = (typeof TEACHING_PRESETS)[number];

/** The experiment: the trainer's settings the page exposes (src/rl/settings.ts), and the rest. */
export interface ExperimentConfig extends PageSettings {
  /** The teaching preset the rest started from (the picker shows it). */
  preset: TeachingPresetId;
  task: PageTask;
  /** Method of lane A and lane B. */
  methods: [LaneMethod, LaneMethod];
  seed: number;
  model: ModelSize;
  /** Difficulty over steps; the first change is at step 0. Slider moves are recorded here. */
  schedule: LevelChange[];
  speed: Speed;
  backend: BackendPref;
  /** Threads each lane's CPU twin splits its kernels across; 0: as many as suit the machine. */
  threads: number;
  hide: Hideable[];
}

/**
 * The distillation a run does: none without replay to learn on (nor its extra prompts), and no
 * extra prompts without distillation — what the lanes are told, and what makes two runs alike.
 */
export function distillationOf(
  c: Pick<ExperimentConfig, 'replay' | 'distill' | 'distillPrompts'>,
): { distill: number; distillPrompts: number } {
  const done = distillationDone({ ...c, distillCoef: c.distill });
  return { distill: done.distillCoef, distillPrompts: done.distillPrompts };
}

/** Lane colours on every chart (orange: lane A, blue: lane B; distinct for colour-blind eyes). */
export const LANE_COLOURS: readonly [string, string] = ['#c2410c', '#1d4ed8'];

/** Lane names for legends and headings: the method, with A/B added when both lanes share it. */
export function laneNames(methods: readonly [LaneMethod, LaneMethod]): [string, string] {
  const [a, b] = methods.map(laneMethodLabel);
  return a === b ? [`${a} (A)`, `${b} (B)`] : [a, b];
}
