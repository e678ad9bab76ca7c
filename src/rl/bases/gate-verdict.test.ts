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

  it('says a short wait in steps that read sensibly, never "about 0 steps"', () => {
    // 11% unhelped over 112 answers a step: about 12 right ones in every step.
    const often = gateVerdict(rows(0.1, 0.9), gate(0.11, 1 / (0.11 * 112)));
    expect(often.kind).toBe('weak');
    expect(often.advice).toMatch(
      /^Hardly a collapse: about 12 of the 112 unhelped answers of every step are right by chance, so plain GRPO has a gradient from the first step\./,
    );
    expect(often.advice).not.toMatch(/about 0 steps/);
    const once = gateVerdict(rows(0.02, 0.9), gate(1 / 112, 1));
    expect(once.advice).toMatch(/about 1 of the 112 unhelped answers of every step is right/);
    const soon = gateVerdict(rows(0.02, 0.9), gate(1 / 150, 1.4));
    expect(soon.advice).toMatch(/within about 1 step, and/);
  });

  it('offers ways to make a jump collapse as suggestions that may not work, and what else to try', () => {
    for (const v of [
      gateVerdict(rows(0.4, 0.9), gate(0.3, 0.03)),
      gateVerdict(rows(0.02, 0.9), gate(1e-3, 9)),
    ]) {
      expect(v.advice).not.toMatch(/Raise the hard level/);
      expect(v.advice).toMatch(/none sure to work/);
      expect(v.advice).toMatch(/further from the easy one/);
      expect(v.advice).toMatch(/fewer of the hard level's problems/);
      expect(v.advice).toMatch(/a step the easy levels never show/);
    }
  });

  it('writes small chances as a power of ten', () => {
    expect(oneIn(0)).toBe('never');
    expect(oneIn(3e-8)).toBe('about 1 in 10⁸');
    expect(oneIn(0.05)).toBe('about 5.0%');
  });
});
