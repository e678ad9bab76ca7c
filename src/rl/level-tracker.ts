import { levelAt, type LevelChange } from './level-schedule.ts';
import type { TrainerCounters } from './training-state.ts';

/** The level fields of a trainer's saved counters. */
type LevelCounters = Pick<
  TrainerCounters,
  'manualLevel' | 'lastLevel' | 'previousLevel' | 'levelSince' | 'lastEval' | 'visitedLevels'
>;

/**
 * Where a run stands in its difficulty: the level of a step (the schedule's, or the slider's from
 * the step it was set), the level before the latest change and the step it happened, every level
 * trained at, and the latest regular eval since the change.
 */
export class LevelTracker {
  private manual: { level: number; from: number } | null = null;
  private last: number;
  /** The level before the latest change; null before any change. */
  previous: number | null = null;
  /** The step the current level began. */
  since = 0;
  /** The latest regular eval at the current level, null since a change until one is made. */
  lastEval: number | null = null;
  /** Every level trained at, in the order met: the levels of eval_accuracy_all. */
  visited: number[];

  constructor(
    private readonly schedule: readonly LevelChange[],
    private readonly range: { min: number; max: number },
    private readonly familyId: string,
  ) {
    this.last = levelAt(schedule, 0);
    this.visited = [this.last];
  }

  /** The difficulty at `step`: the live setting if one was made, else the schedule's. */
  at(step: number): number {
    return this.manual ? this.manual.level : levelAt(this.schedule, step);
  }

  /** Change the difficulty from `step` on (the UI's slider); overrides the schedule. */
  set(level: number, step: number): void {
    const { min, max } = this.range;
    if (!Number.isInteger(level) || level < min || level > max) {
      throw new RangeError(`level ${level} is outside ${min}..${max} for ${this.familyId}`);
    }
    this.manual = { level, from: step };
  }

  /** The level of `step`; a change starts the count of steps at the level afresh. */
  enter(step: number): number {
    const level = this.at(step);
    if (level !== this.last) {
      this.previous = this.last;
      this.last = level;
      if (!this.visited.includes(level)) this.visited.push(level);
      this.since = step;
      this.lastEval = null;
    }
    return level;
  }

  counters(): LevelCounters {
    return {
      manualLevel: this.manual && { ...this.manual },
      lastLevel: this.last,
      previousLevel: this.previous,
      levelSince: this.since,
      lastEval: this.lastEval,
      visitedLevels: [...this.visited],
    };
  }

  /**
   * The levels of checked counters (checkCounters), each within the family's range; states saved
   * before visitedLevels was kept visited their last and previous level. Throws before anything
   * changes; `restore` takes what it returns.
   */
  check(c: LevelCounters): Required<LevelCounters> {
    const visitedLevels = c.visitedLevels ?? [
      ...(c.previousLevel === null ? [] : [c.previousLevel]),
      c.lastLevel,
    ];
    const { min, max } = this.range;
    const levels = [c.lastLevel, c.previousLevel, c.manualLevel?.level, ...visitedLevels];
    const outside = levels.find((l) => l !== null && l !== undefined && (l < min || l > max));
    if (outside !== undefined)
      throw new Error(`training state: level ${outside} is outside ${min}..${max}`);
    return { ...c, visitedLevels };
  }

  restore(c: Required<LevelCounters>): void {
    this.manual = c.manualLevel && { ...c.manualLevel };
    this.last = c.lastLevel;
    this.previous = c.previousLevel;
    this.since = c.levelSince;
    this.lastEval = c.lastEval;
    this.visited = [...c.visitedLevels];
  }
}
