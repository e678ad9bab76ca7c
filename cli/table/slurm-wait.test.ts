import { describe, expect, it } from 'vitest';
import { progressLine } from './slurm-wait.ts';

describe('progressLine', () => {
  it('counts the runs by state, with an ETA at the pace of those finished while waiting', () => {
    const states = ['finished', 'finished', 'finished', 'running', 'pending', 'failed'] as const;
    // Two finished in the 60 s waited (one was before): the two left take 60 s more.
    expect(progressLine(states, 60, 1)).toBe(
      '[slurm] 3/6 finished, 1 pending, 1 running, 1 failed; ETA 60 s',
    );
    expect(progressLine(states, 3600, 1)).toBe(
      '[slurm] 3/6 finished, 1 pending, 1 running, 1 failed; ETA 60 min',
    );
    // None finished yet while waiting: no pace to tell.
    expect(progressLine(states, 60, 3)).toBe(
      '[slurm] 3/6 finished, 1 pending, 1 running, 1 failed',
    );
  });
});
