// One run, as the page's lanes and the command line both describe it, and the one way the
// trainer's config is made from it: the task, the method, the schedule and every trainer setting
// by its key in src/rl/settings.ts (the URL's and the flags' spellings are made from that table).
import { methodScalesRewards, needsWorking } from '../interventions/methods.ts';
import type { ModelSize } from '../model/config.ts';
import { DEFAULT_GRPO, type GrpoConfig } from '../rl/config.ts';
import type { LevelChange } from '../rl/level-schedule.ts';
import { trainerSettings, type SettingValues } from '../rl/settings.ts';
import { familyEntry, type TaskId, type TeacherFormat } from '../tasks/index.ts';

export interface RunSpec<Task extends TaskId = TaskId, Method extends string = string> {
  task: Task;
  /** A method of the registry, the page's custom one, or a module file (the command line's). */
  method: Method;
  model: ModelSize;
  seed: number;
  schedule: LevelChange[];
  /** Every trainer setting, by its key (lrDecay as a share of the run). */
  settings: SettingValues;
  /** The run's length; null for a lane of the page, which runs until stopped (never anneals). */
  steps: number | null;
  /**
   * The notation of a teacher's worked solutions, where a method shows them: for the caller that
   * makes the intervention (the page's lanes always show the policy's own).
   */
  teacher: TeacherFormat;
  /** Mentor answers later than this are skipped for the step; the trainer's default if absent. */
  mentorDeadlineMs?: number;
}

/**
 * The trainer's config of a run (settings that do not go together are the trainer's to refuse,
 * and the command line's, in its own spelling, before it).
 */
export function runConfig(spec: RunSpec): GrpoConfig {
  return {
    ...DEFAULT_GRPO,
    task: spec.task,
    model: spec.model,
    seed: spec.seed,
    schedule: spec.schedule,
    scaleRewards: methodScalesRewards(spec.method),
    ...trainerSettings(spec.settings, spec.steps, spec.schedule),
    ...(spec.mentorDeadlineMs === undefined ? {} : { mentorDeadlineMs: spec.mentorDeadlineMs }),
  };
}

/** Whether `method` can run on `task`: one whose lessons are made of working needs a task that writes it. */
export function methodRunsOn(method: string, task: TaskId): boolean {
  return !needsWorking(method) || familyEntry(task).family.teacherSolution !== undefined;
}
