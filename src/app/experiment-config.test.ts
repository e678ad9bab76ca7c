import { describe, expect, it } from 'vitest';
import { laneNames } from './experiment-config.ts';

describe('lane names', () => {
  it('names lanes by method, telling twins apart', () => {
    expect(laneNames(['none', 'mentor'])).toEqual(['GRPO', 'GRPO + MENTOR']);
    expect(laneNames(['mentor', 'mentor'])).toEqual(['GRPO + MENTOR (A)', 'GRPO + MENTOR (B)']);
  });
});
