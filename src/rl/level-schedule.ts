// Difficulty over steps: a list of level changes, written "step:level,…" in the URL and the CLI.
import type { CollapseScenario, Levels } from '../tasks/index.ts';

/** A difficulty change: from `step` on, problems are drawn at `level`. */
export interface LevelChange {
  step: number;
  level: number;
}

/** Schedules longer than this are cut; steps beyond MAX_STEP are not read. */
export const MAX_SCHEDULE = 64;
export const MAX_STEP = 10_000_000;

/** The level in force at `step` under a schedule sorted by step. */
export function levelAt(schedule: readonly LevelChange[], step: number): number {
  let level = schedule[0]?.level ?? 1;
  for (const c of schedule) if (c.step <= step) level = c.level;
  return level;
}

export function formatSchedule(schedule: readonly LevelChange[]): string {
  return schedule.map((c) => `${c.step}:${c.level}`).join(',');
}

/** What a schedule text holds, every problem kept for the caller to refuse or repair. */
export interface ScheduleText {
  /** The well-formed entries, sorted by step; a later entry for the same step wins. */
  changes: LevelChange[];
  /** Entries that are not `step:level` (or name a step beyond MAX_STEP). */
  malformed: string[];
  /** Steps named more than once. */
  repeatedSteps: number[];
}

export function readSchedule(text: string): ScheduleText {
  const byStep = new Map<number, number>();
  const malformed: string[] = [];
  const repeated = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^\s*(\d{1,9})\s*:\s*(\d{1,4})\s*$/.exec(part);
    if (!m || Number(m[1]) > MAX_STEP) {
      malformed.push(part);
      continue;
    }
    const step = Number(m[1]);
    if (byStep.has(step)) repeated.add(step);
    byStep.set(step, Number(m[2]));
  }
  const changes = [...byStep.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([step, level]) => ({ step, level }));
  return { changes, malformed, repeatedSteps: [...repeated] };
}

/** "0:3,150:6" → level changes, sorted; anything off (within `levels`) is an error that says what. */
export function parseSchedule(text: string, levels: Levels): LevelChange[] {
  const { changes, malformed, repeatedSteps } = readSchedule(text);
  if (malformed.length) throw new Error(`schedule entry "${malformed[0]}" is not step:level`);
  if (repeatedSteps.length) throw new Error(`two levels at step ${repeatedSteps[0]}`);
  if (changes[0].step !== 0) throw new Error('a schedule starts at step 0');
  const outside = changes.find((c) => c.level < levels.min || c.level > levels.max);
  if (outside) throw new Error(`level ${outside.level} is outside ${levels.min}..${levels.max}`);
  return changes;
}

/**
 * Whether `s` is a schedule: whole-number changes from step 0 on, their steps rising, their levels
 * within `levels` where given (a stored state's is checked against its family's range later).
 */
export function isSchedule(s: unknown, levels?: Levels): s is LevelChange[] {
  const whole = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0;
  return (
    Array.isArray(s) &&
    s.length > 0 &&
    (s[0] as LevelChange | undefined)?.step === 0 &&
    s.every(
      (x: LevelChange | undefined, i) =>
        whole(x?.step) &&
        whole(x.level) &&
        (i === 0 || x.step > (s[i - 1] as LevelChange).step) &&
        (!levels || (x.level >= levels.min && x.level <= levels.max)),
    )
  );
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

/** The collapse scenario as a schedule: the easy level, then the hard one from its jump on. */
export function collapseSchedule(s: CollapseScenario): LevelChange[] {
  return [
    { step: 0, level: s.easy },
    { step: s.jumpAt, level: s.hard },
  ];
}
