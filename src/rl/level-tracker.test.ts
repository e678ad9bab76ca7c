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
    b.restore(b.check(a.counters(), 6));
    expect(b.counters()).toEqual(a.counters());
    expect(b.enter(6)).toBe(4);
    expect(b.lastEval).toBe(0.25);
    // A state saved before visited levels were kept: the last and the previous level.
    const { visitedLevels: _v, ...older } = a.counters();
    expect(b.check(older, 6).visitedLevels).toEqual([3, 4]);
    expect(() => b.check({ ...a.counters(), visitedLevels: [3, 9] }, 6)).toThrow(
      'training state: level 9 is outside 1..6',
    );
    expect(b.counters()).toEqual(a.counters());
  });

  it('goes on from a live change, and reads one from a state saved before it kept the schedule', () => {
    const a = new LevelTracker(schedule, { min: 1, max: 6 }, 'arithmetic');
    a.enter(0);
    a.set(2, 3);
    // Restarted as the page restarts a lane: from the schedule it recorded, and the state.
    const b = new LevelTracker(a.followed, { min: 1, max: 6 }, 'arithmetic');
    b.restore(b.check(a.counters(), 4));
    expect(b.followed).toEqual([
      { step: 0, level: 3 },
      { step: 3, level: 2 },
    ]);
    // The scheduled jump at step 5 was overridden by the change at 3.
    expect(b.at(6)).toBe(2);
    const { schedule: _s, ...older } = a.counters();
    const c = new LevelTracker(schedule, { min: 1, max: 6 }, 'arithmetic');
    c.restore(c.check({ ...older, manualLevel: { level: 2, from: 3 } }, 4));
    expect(c.followed).toEqual(b.followed);
    expect(() => c.check({ ...a.counters(), schedule: [{ step: 0, level: 8 }] }, 4)).toThrow(
      'training state: level 8 is outside 1..6',
    );
  });

  it('keeps a change made after the state it goes on from was saved', () => {
    // Saved after step 20 at level 3; the slider moved to 5 from step 35 (a reload resumes from
    // the state at 20, with the schedule the page recorded).
    const a = new LevelTracker([{ step: 0, level: 3 }], { min: 1, max: 6 }, 'arithmetic');
    a.enter(0);
    const saved = a.counters();
    const recorded = [
      { step: 0, level: 3 },
      { step: 35, level: 5 },
    ];
    const b = new LevelTracker(recorded, { min: 1, max: 6 }, 'arithmetic');
    b.restore(b.check(saved, 20));
    expect(b.followed).toEqual(recorded);
    expect(b.at(36)).toBe(5);
  });
});
