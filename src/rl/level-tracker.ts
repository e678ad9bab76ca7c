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
  private before: number | null = null;
  private start = 0;
  private eval: number | null = null;
  private levels: number[];

  constructor(
    private readonly schedule: readonly LevelChange[],
    private readonly range: { min: number; max: number },
    private readonly familyId: string,
  ) {
    this.last = levelAt(schedule, 0);
    this.levels = [this.last];
  }

  /** The level before the latest change; null before any change. */
  get previous(): number | null {
    return this.before;
  }

  /** The step the current level began. */
  get since(): number {
    return this.start;
  }

  /** The latest regular eval at the current level, null since a change until one is made. */
  get lastEval(): number | null {
    return this.eval;
  }

  /** Every level trained at, in the order met: the levels of eval_accuracy_all. */
  get visited(): readonly number[] {
    return this.levels;
  }

  /** A regular eval at the current level (what the intervention is told). */
  recordEval(accuracy: number): void {
    this.eval = accuracy;
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
      this.before = this.last;
      this.last = level;
      if (!this.levels.includes(level)) this.levels.push(level);
      this.start = step;
      this.eval = null;
    }
    return level;
  }

  counters(): LevelCounters {
    return {
      manualLevel: this.manual && { ...this.manual },
      lastLevel: this.last,
      previousLevel: this.before,
      levelSince: this.start,
      lastEval: this.eval,
      visitedLevels: [...this.levels],
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
    this.before = c.previousLevel;
    this.start = c.levelSince;
    this.eval = c.lastEval;
    this.levels = [...c.visitedLevels];
  }
}
