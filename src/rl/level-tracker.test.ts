import { describe, expect, it } from 'vitest';
import { LevelTracker } from './level-tracker.ts';

const schedule = [
  { step: 0, level: 3 },
  { step: 5, level: 4 },
];

describe('the level tracker', () => {
  it('follows the schedule, remembers the level before a change, and forgets the last eval', () => {
    const t = new LevelTracker(schedule, { min: 1, max: 6 }, 'arithmetic');
    expect(t.enter(0)).toBe(3);
    t.recordEval(0.9);
    expect(t.enter(4)).toBe(3);
    expect(t.lastEval).toBe(0.9);
    expect(t.enter(5)).toBe(4);
    expect({ previous: t.previous, since: t.since, lastEval: t.lastEval }).toEqual({
      previous: 3,
      since: 5,
      lastEval: null,
    });
    // The slider overrides the schedule from the step it was moved.
    t.set(3, 8);
    expect(t.at(100)).toBe(3);
    expect(t.enter(8)).toBe(3);
    expect(t.visited).toEqual([3, 4]);
    // It keeps the schedule it follows, the change in it.
    expect(t.followed).toEqual([
      { step: 0, level: 3 },
      { step: 5, level: 4 },
      { step: 8, level: 3 },
    ]);
    expect(() => t.set(7, 9)).toThrow('level 7 is outside 1..6 for arithmetic');
  });

  it('goes on exactly from its counters, and refuses a level outside the range before changing', () => {
    const a = new LevelTracker(schedule, { min: 1, max: 6 }, 'arithmetic');
    a.enter(0);
    a.enter(5);
    a.recordEval(0.25);
    const b = new LevelTracker(schedule, { min: 1, max: 6 }, 'arithmetic');
    b.restore(b.check(a.counters()));
    expect(b.counters()).toEqual(a.counters());
    expect(b.enter(6)).toBe(4);
    expect(b.lastEval).toBe(0.25);
    // A state saved before visited levels were kept: the last and the previous level.
    const { visitedLevels: _v, ...older } = a.counters();
    expect(b.check(older).visitedLevels).toEqual([3, 4]);
    expect(() => b.check({ ...a.counters(), visitedLevels: [3, 9] })).toThrow(
      'training state: level 9 is outside 1..6',
    );
    expect(b.counters()).toEqual(a.counters());
  });

  it('goes on from a live change, and reads one from a state saved before it kept the schedule', () => {
    const a = new LevelTracker(schedule, { min: 1, max: 6 }, 'arithmetic');
    a.enter(0);
    a.set(2, 3);
    const b = new LevelTracker(schedule, { min: 1, max: 6 }, 'arithmetic');
    b.restore(b.check(a.counters()));
    expect(b.followed).toEqual([
      { step: 0, level: 3 },
      { step: 3, level: 2 },
    ]);
    // The scheduled jump at step 5 was overridden by the change at 3.
    expect(b.at(6)).toBe(2);
    const { schedule: _s, ...older } = a.counters();
    const c = new LevelTracker(schedule, { min: 1, max: 6 }, 'arithmetic');
    c.restore(c.check({ ...older, manualLevel: { level: 2, from: 3 } }));
    expect(c.followed).toEqual(b.followed);
    expect(() => c.check({ ...a.counters(), schedule: [{ step: 0, level: 8 }] })).toThrow(
      'training state: level 8 is outside 1..6',
    );
  });
});
