import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAMILY_IDS, familyEntry } from '../tasks/index.ts';
import { escapeChance, escapeText } from './plain-escape.ts';
import { presetConfig } from './presets.ts';
import { readShippedGate } from './shipped-gate.ts';

const shipped = (task: string) =>
  readShippedGate(
    JSON.parse(readFileSync(`public/checkpoints/${task}-tiny.gate.json`, 'utf8')) as unknown,
  );

describe('how likely plain GRPO escapes by itself', () => {
  it('ships a gate reading at the hard level of each family’s collapse', () => {
    for (const task of FAMILY_IDS) {
      const gate = shipped(task);
      expect(gate?.level).toBe(familyEntry(task).collapse.hard);
      expect(gate?.problems).toBe(5000);
    }
    expect(readShippedGate({ level: 4, problems: 1, chance: 2 })).toBeNull();
  });

  it('turns the gate into a chance per step at the experiment’s P × G', () => {
    const gate = { level: 4, problems: 5000, chance: 1e-3 };
    // 16 prompts, 2 replayed, × 8: 112 unhinted answers a step.
    const e = escapeChance(gate, presetConfig('collapse'));
    expect(e.samplesPerStep).toBe(112);
    expect(e.perStep).toBeCloseTo(1 - 0.999 ** 112, 12);
    expect(e.waitSteps).toBeCloseTo(1 / 0.112, 9);
    // The quick preset samples far fewer: 3 prompts (1 replayed) × 4.
    expect(escapeChance(gate, presetConfig('quick')).samplesPerStep).toBe(12);
  });

  it('says it for arithmetic: lucky sums are frequent, yet an escape is late', () => {
    const text = escapeText('arithmetic', shipped('arithmetic')!, presetConfig('collapse'));
    expect(text).toContain(
      'At level 4 (4-digit addition) the base writes the right answer without help about 1 in 10³ tries (the gate, over 5,000 problems).',
    );
    expect(text).toContain(
      'At 112 unhinted answers a step, a step holds a lucky right answer with a chance of about 3.8%: one every 26 steps on average.',
    );
    expect(text).toContain('reached 0.5) on 4 of 10 seeds, 775–875 steps after the jump');
  });

  it('says it for listlang: a lucky program is all but never', () => {
    const text = escapeText('listlang', shipped('listlang')!, presetConfig('listlang'));
    expect(text).toContain('about 1 in 10⁷ tries');
    expect(text).toContain('with a chance of about 1 in 10⁵: one every 110,000 steps on average');
    expect(text).toContain('reached 0.5) on none of 10 seeds');
  });
});
