import { describe, expect, it } from 'vitest';
import { poolEtaS, poolProgressLine } from './pool-progress.ts';

describe('poolEtaS', () => {
  it('is the mean wall time × the runs left ÷ the processes that run them', () => {
    // Mean 90 s; 24 left on 3 processes: 720 s.
    expect(poolEtaS([60, 90, 120, 80, 100, 90], 30, 3)).toBe(720);
    // One left: a run's time, however many processes the pool has.
    expect(poolEtaS([60, 120], 3, 3)).toBe(90);
    expect(poolEtaS([60, 120], 2, 3)).toBe(0);
    expect(poolEtaS([], 30, 3)).toBeNull();
  });
});

describe('poolProgressLine', () => {
  it('counts the runs done and running, with the ETA', () => {
    expect(poolProgressLine([60, 90, 120, 80, 100, 90], 30, 3)).toBe(
      '[table] 6/30 runs done, 3 running, ETA 12 min',
    );
    expect(poolProgressLine([30], 3, 2)).toBe('[table] 1/3 runs done, 2 running, ETA 30 s');
    expect(poolProgressLine([], 30, 3)).toBe('[table] 0/30 runs done, 3 running, ETA –');
    expect(poolProgressLine([30, 40], 2, 2)).toBe('[table] 2/2 runs done, 0 running, ETA 0 s');
  });
});
