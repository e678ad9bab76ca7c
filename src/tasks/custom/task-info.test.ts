import { describe, expect, it } from 'vitest';
import { critiqueOf } from '../critique.ts';
import { makeHint } from '../hints.ts';
import { familyEntry, registerFamily } from '../registry.ts';
import { createRng } from '../rng.ts';
import type { FamilyEntry } from '../family-entry.ts';
import type { CustomProblem } from './custom-problem.ts';
import { checkTask } from './task-check.ts';
import { CUSTOM_TASK_ID, describedEntry, taskInfo } from './task-info.ts';
import type { TaskModule } from './task-module.ts';

const upper: TaskModule = {
  id: 'double',
  label: 'Double a word',
  levels: { min: 2, max: 4 },
  describeLevel: (l) => `${l} letters`,
  collapse: { easy: 2, hard: 4 },
  sample: (level, rng) => {
    const w = Array.from({ length: level }, () => rng.pick([...'xyz'])).join('');
    return { text: w, answer: w + w };
  },
};

function info() {
  const c = checkTask(upper, 128);
  if (!c.ok) throw new Error('check failed');
  return taskInfo(upper, c.checked);
}

describe('a task module’s account, for contexts that must not run its code', () => {
  it('is plain data: its levels in words already written, its jump, its alphabet', () => {
    const i = info();
    expect(structuredClone(i)).toEqual(i);
    expect(i).toMatchObject({
      moduleId: 'double',
      label: 'Double a word',
      levels: { min: 2, max: 4 },
      levelNames: ['2 letters', '3 letters', '4 letters'],
      answerUnit: ['character', 'characters'],
      collapse: { easy: 2, hard: 4 },
    });
    expect(i.checked.answerChars).toBe('xyz');
  });

  it('makes a family that reads like one but never samples, and judges hints by exact match', () => {
    const entry = describedEntry(info(), CUSTOM_TASK_ID) as unknown as FamilyEntry;
    registerFamily(entry);
    expect(familyEntry('custom')).toBe(entry);
    expect(entry.describeLevel(3)).toBe('3 letters');
    expect(entry.collapse).toMatchObject({ easy: 2, hard: 4, keepFailed: 4 });
    expect(() => entry.family.sample(3, createRng(1))).toThrow(
      /Double a word: its problems are drawn where its code runs, not here/,
    );
    expect(() => entry.describeLevel(7)).toThrow(/level 7 is not an integer in 2..4/);
    const p: CustomProblem = {
      family: CUSTOM_TASK_ID,
      level: 3,
      text: 'xyz',
      answer: 'xyzxyz',
      data: null,
    };
    expect(entry.family.verify(p, 'xyzxyz').reward).toBe(1);
    expect(entry.family.verify(p, 'xyzxy').reward).toBe(0);
    expect(makeHint(p, 'length', 1, createRng(1))).toEqual({ kind: 'length', length: 6 });
    expect(critiqueOf(p, 'xyzzzz', 0.8)).toEqual({
      kind: 'critique',
      attempt: 'xyzzzz',
      wrongAt: 3,
    });
  });
});
