import { levelAt, withLevelChange, type LevelChange } from './level-schedule.ts';
import type { TrainerCounters } from './training-state.ts';

/** The level fields of a trainer's saved counters. */
type LevelCounters = Pick<
  TrainerCounters,
  | 'manualLevel'
  | 'schedule'
  | 'lastLevel'
  | 'previousLevel'
  | 'levelSince'
  | 'lastEval'
  | 'visitedLevels'
>;

/**
 * Where a run stands in its difficulty: the schedule it follows (the one it started with and every
 * live change since: the one record of them, which the page writes to its URL), the level before
 * the latest change and the step it happened, every level trained at, and the latest regular eval
 * since the change.
 */
export class LevelTracker {
  private live: LevelChange[];
  private last: number;
  private before: number | null = null;
  private start = 0;
  private eval: number | null = null;
  private levels: number[];

  constructor(
    private readonly started: readonly LevelChange[],
    private readonly range: { min: number; max: number },
    private readonly familyId: string,
  ) {
    this.live = started.map((c) => ({ ...c }));
    this.last = levelAt(started, 0);
    this.levels = [this.last];
  }

  /** The schedule the run follows: the one it started with, with every live change made since. */
  get followed(): LevelChange[] {
    return this.live.map((c) => ({ ...c }));
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

  /** The difficulty at `step` (from now on): the followed schedule's. */
  at(step: number): number {
    return levelAt(this.live, step);
  }

  /** Change the difficulty from `step` on (the UI's slider); overrides the rest of the schedule. */
  set(level: number, step: number): void {
    const { min, max } = this.range;
    if (!Number.isInteger(level) || level < min || level > max) {
      throw new RangeError(`level ${level} is outside ${min}..${max} for ${this.familyId}`);
    }
    this.live = withLevelChange(this.live, step, level);
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
      schedule: this.followed,
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
  check(c: LevelCounters, step: number): Required<Omit<LevelCounters, 'manualLevel'>> {
    const visitedLevels = c.visitedLevels ?? [
      ...(c.previousLevel === null ? [] : [c.previousLevel]),
      c.lastLevel,
    ];
    // The state says what was followed before its step (`step`); from it on, the schedule this
    // tracker was made with does: a change made after the state was saved is in that one (the page
    // records it at once, the lane keeps its start schedule up to date), not in the state. A state
    // saved before the schedule was kept has its live level, which overrode the rest.
    const schedule = c.schedule
      ? [
          ...c.schedule.filter((x) => x.step < step),
          ...this.started.filter((x) => x.step >= step),
        ].map((x) => ({ ...x }))
      : c.manualLevel
        ? withLevelChange(this.started, c.manualLevel.from, c.manualLevel.level)
        : this.started.map((x) => ({ ...x }));
    const { min, max } = this.range;
    const levels = [
      c.lastLevel,
      c.previousLevel,
      c.manualLevel?.level,
      ...visitedLevels,
      ...schedule.map((x) => x.level),
    ];
    const outside = levels.find((l) => l !== null && l !== undefined && (l < min || l > max));
    if (outside !== undefined)
      throw new Error(`training state: level ${outside} is outside ${min}..${max}`);
    const { manualLevel: _old, ...rest } = c;
    return { ...rest, visitedLevels, schedule };
  }

  restore(c: Required<Omit<LevelCounters, 'manualLevel'>>): void {
    this.live = c.schedule.map((x) => ({ ...x }));
    this.last = c.lastLevel;
    this.before = c.previousLevel;
    this.start = c.levelSince;
    this.eval = c.lastEval;
    this.levels = [...c.visitedLevels];
  }
}
