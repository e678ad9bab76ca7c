import { describe, expect, it } from 'vitest';
import { MAX_SCHEDULE, laneNames, levelAt, withLevelChange } from './experiment-config.ts';

describe('schedules and lanes', () => {
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

  it('names lanes by method, telling twins apart', () => {
    expect(laneNames(['none', 'mentor'])).toEqual(['GRPO', 'GRPO + MENTOR']);
    expect(laneNames(['mentor', 'mentor'])).toEqual(['GRPO + MENTOR (A)', 'GRPO + MENTOR (B)']);
  });
});
