import { describe, expect, it } from 'vitest';
import type { GateChance } from './gate-chance.ts';
import { gateVerdict, oneIn } from './gate-verdict.ts';
import type { LiteracyRow } from './literacy.ts';

function rows(none: number, length: number, prefix: number | null = null): LiteracyRow[] {
  const cells = [
    { help: 'none', accuracy: none, n: 100 },
    { help: 'length:1', accuracy: length, n: 100 },
    { help: 'prefix:1', accuracy: prefix, n: 100 },
  ];
  return [
    {
      level: 4,
      cells: cells.map((c) => ({ ...c, accuracy: 1 })),
      lengths: { shorter: 0, longer: 0 },
    },
    { level: 6, cells, lengths: { shorter: 1, longer: 0 } },
  ];
}

function gate(chance: number, wait: number): GateChance {
  return {
    level: 6,
    problems: 200,
    chance,
    samplesPerStep: 112,
    expectedWaitSteps: wait,
    leaders: [],
  };
}

describe('gateVerdict', () => {
  it('calls a jump GRPO cannot see and help reaches a collapse within reach, in one line', () => {
    const v = gateVerdict(rows(0, 0.35), gate(2e-12, 4e9));
    expect(v.kind).toBe('collapse');
    expect(v.summary).toBe(
      'greedy 0% at level 6; unhelped about 1 in 10¹²; with a length hint 35%',
    );
  });

  it('names the best help where it is not the length', () => {
    expect(gateVerdict(rows(0, 0.05, 0.6), gate(1e-8, 1e6)).summary).toMatch(
      /with a length hint 5.0%; best help \(prefix:1\) 60%$/,
    );
  });

  it('says what to try where the jump is no collapse, a brief one, or out of reach', () => {
    expect(gateVerdict(rows(0.4, 0.9), gate(0.3, 0.03)).kind).toBe('no-collapse');
    const weak = gateVerdict(rows(0.02, 0.9), gate(1e-3, 9));
    expect(weak.kind).toBe('weak');
    expect(weak.advice).toMatch(/within about 9 steps/);
    const far = gateVerdict(rows(0, 0.02, 0.05), gate(1e-15, 1e13));
    expect(far.kind).toBe('out-of-reach');
    expect(far.advice).toMatch(/Warm up longer, or make the jump smaller/);
  });

  it('writes small chances as a power of ten', () => {
    expect(oneIn(0)).toBe('never');
    expect(oneIn(3e-8)).toBe('about 1 in 10⁸');
    expect(oneIn(0.05)).toBe('about 5.0%');
  });
});
