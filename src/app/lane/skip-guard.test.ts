import { describe, expect, it } from 'vitest';
import { fakeStep } from '../testing/fake-metrics.ts';
import { ROLLBACK_AFTER_SKIPS, SkipGuard } from './skip-guard.ts';

describe('the lane watch on skipped updates', () => {
  it('gives one notice per skipped step and rolls back after three in a row', () => {
    const guard = new SkipGuard();
    const counts = [0, 1, 1, 2, 3, 4, 4, 5];
    const verdicts = counts.map((n, step) => guard.observe(fakeStep(step, { skipped_steps: n })));
    expect(verdicts.map((v) => v.notice !== null)).toEqual([
      false,
      true,
      false,
      true,
      true,
      true,
      false,
      true,
    ]);
    // Steps 3, 4 and 5 are three in a row; step 7 starts a new run.
    expect(verdicts.map((v) => v.rollback)).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
      false,
      false,
    ]);
    expect(verdicts[1].notice).toMatch(/^Step 1: the update was skipped/);
    expect(ROLLBACK_AFTER_SKIPS).toBe(3);
  });
});
