import { describe, expect, it } from 'vitest';
import { getFamily } from '../tasks/index.ts';
import {
  MAX_SCHEDULE,
  collapseSchedule,
  formatSchedule,
  levelAt,
  parseSchedule,
  readSchedule,
  withLevelChange,
} from './level-schedule.ts';

describe('level schedules', () => {
  it('records a slider move, dropping the changes it overrides', () => {
    const s = [
      { step: 0, level: 3 },
      { step: 50, level: 5 },
    ];
    expect(withLevelChange(s, 20, 4)).toEqual([
      { step: 0, level: 3 },
      { step: 20, level: 4 },
    ]);
    expect(withLevelChange(s, 20, 3)).toEqual([{ step: 0, level: 3 }]);
    expect(withLevelChange([{ step: 0, level: 3 }], 0, 4)).toEqual([{ step: 0, level: 4 }]);
    expect(levelAt(s, 49)).toBe(3);
    expect(levelAt(s, 50)).toBe(5);
  });

  it('keeps the start level when the schedule gets long', () => {
    let s = [{ step: 0, level: 1 }];
    for (let i = 1; i <= MAX_SCHEDULE + 10; i++) s = withLevelChange(s, i, 1 + (i % 2));
    expect(s).toHaveLength(MAX_SCHEDULE);
    expect(s[0]).toEqual({ step: 0, level: 1 });
  });

  it('parses strictly for the CLI, naming what is wrong', () => {
    const levels = getFamily('arithmetic').levels;
    expect(parseSchedule('100:4, 0:3', levels)).toEqual([
      { step: 0, level: 3 },
      { step: 100, level: 4 },
    ]);
    expect(formatSchedule(parseSchedule('0:3,100:4', levels))).toBe('0:3,100:4');
    expect(() => parseSchedule('0:3,x', levels)).toThrow('schedule entry "x" is not step:level');
    expect(() => parseSchedule('0:3,5:4,5:5', levels)).toThrow('two levels at step 5');
    expect(() => parseSchedule('5:3', levels)).toThrow('a schedule starts at step 0');
    expect(() => parseSchedule('0:9', levels)).toThrow('level 9 is outside 1..8');
    expect(() => parseSchedule('', levels)).toThrow('is not step:level');
  });

  it('reads leniently for the URL, keeping every problem for the caller', () => {
    expect(readSchedule('20:4,x,0:3,20:5,99999999999:1')).toEqual({
      changes: [
        { step: 0, level: 3 },
        { step: 20, level: 5 },
      ],
      malformed: ['x', '99999999999:1'],
      repeatedSteps: [20],
    });
  });

  it('turns a collapse scenario into its schedule', () => {
    expect(
      collapseSchedule({
        easy: 3,
        hard: 4,
        jumpAt: 100,
        keepFailed: 0,
        replayMax: 0,
        distill: 0,
        distillPrompts: 0,
        lrDecay: 0,
      }),
    ).toEqual([
      { step: 0, level: 3 },
      { step: 100, level: 4 },
    ]);
  });
});
