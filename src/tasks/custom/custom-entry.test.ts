import { describe, expect, it } from 'vitest';
import { critiqueOf } from '../critique.ts';
import { makeHint, parseHint, randomHint } from '../hints.ts';
import { encodeSequence } from '../prompt.ts';
import { familyEntry, registerFamily, verifyAnswer } from '../registry.ts';
import { createRng, type Rng } from '../rng.ts';
import type { FamilyEntry } from '../family-entry.ts';
import { customCollapse, customEntry } from './custom-entry.ts';
import { checkTask } from './task-check.ts';
import type { TaskModule } from './task-module.ts';

function word(level: number, rng: Rng): string {
  return Array.from({ length: level }, () => rng.pick([...'abcd'])).join('');
}

const reverse: TaskModule = {
  id: 'rev-entry',
  label: 'Reverse',
  levels: { min: 2, max: 5 },
  sample: (level, rng) => {
    const w = word(level, rng);
    return { text: w, answer: [...w].reverse().join('') };
  },
};

function entryOf(task: TaskModule): FamilyEntry {
  const c = checkTask(task, 128);
  if (!c.ok) throw new Error('check failed');
  const entry = customEntry(task, c.checked) as unknown as FamilyEntry;
  registerFamily(entry);
  return entry;
}

describe('customEntry', () => {
  it('samples problems of its text and answer, reproducibly, and verifies by exact match', () => {
    const { family } = entryOf(reverse);
    const p = family.sample(4, createRng(7));
    expect(family.sample(4, createRng(7))).toEqual(p);
    expect(p).toMatchObject({ family: 'rev-entry', level: 4, data: null });
    expect(p.answer).toBe([...p.text].reverse().join(''));
    expect(family.verify(p, p.answer)).toEqual({
      reward: 1,
      feedback: { family: 'rev-entry', kind: 'right' },
    });
    expect(family.verify(p, p.text + 'x').reward).toBe(0);
    expect(() => family.sample(9, createRng(1))).toThrow(
      /rev-entry: level 9 is not an integer in 2..5/,
    );
  });

  it('once registered, has the help any family has: length, prefix and critique hints', () => {
    const { family } = entryOf(reverse);
    const p = family.sample(5, createRng(3));
    expect(verifyAnswer(p, p.answer).reward).toBe(1);
    expect(makeHint(p, 'length', 1, createRng(1))).toEqual({ kind: 'length', length: 5 });
    const prefix = makeHint(p, 'prefix', 2, createRng(1));
    expect(prefix?.kind === 'prefix' && p.answer.startsWith(prefix.text)).toBe(true);
    expect(() => makeHint(p, 'carries', 1, createRng(1))).toThrow(/rev-entry has no carries hints/);
    const wrong = p.answer.slice(0, 2) + (p.answer[2] === 'a' ? 'b' : 'a') + p.answer.slice(3);
    expect(critiqueOf(p, wrong, 0.8)).toEqual({ kind: 'critique', attempt: wrong, wrongAt: 2 });
    expect(parseHint('rev-entry' as never, '#5')).toEqual({
      ok: true,
      hint: { kind: 'length', length: 5 },
    });
    // Every hint it gives fits the sequence the check measured.
    for (let s = 0; s < 50; s++) {
      const hint = randomHint(p, createRng(s));
      expect(encodeSequence(p, p.answer, { hint }).tokens.length).toBeLessThanOrEqual(
        family.maxTokens(5),
      );
    }
  });

  it('scores a verify that throws, returns NaN or leaves [0, 1] as 0, with a fault naming it', () => {
    const verify = (_p: unknown, answer: string) => {
      if (answer === 'boom') throw new Error('it broke');
      if (answer === 'nan') return NaN;
      if (answer === 'inf') return -Infinity;
      if (answer === 'big') return 1.5;
      if (answer === 'text') return 'yes' as unknown as number;
      return answer === 'zz' ? 0.25 : 1;
    };
    const { family } = entryOf({ ...reverse, id: 'rev-faults', verify });
    const p = family.sample(3, createRng(1));
    const faultOf = (a: string) => family.verify(p, a);
    expect(faultOf('boom')).toMatchObject({ reward: 0, feedback: { kind: 'fault' } });
    expect(faultOf('boom').fault).toBe(
      `task "rev-faults": verify threw (it broke) on the answer "boom" to "${p.text}"; scored 0`,
    );
    // As the module returned it: JSON would print NaN and infinities as null.
    expect(faultOf('nan').fault).toMatch(/verify returned NaN, not a number/);
    expect(faultOf('inf').fault).toMatch(/verify returned -Infinity, outside \[0, 1\]/);
    expect(faultOf('big').fault).toMatch(/verify returned 1.5, outside \[0, 1\]/);
    expect(faultOf('text').fault).toMatch(/verify returned "yes", not a number/);
    expect(faultOf('zz')).toEqual({
      reward: 0.25,
      feedback: { family: 'rev-faults', kind: 'partial' },
    });
  });

  it('names a sample that throws or goes bad mid-run, and draws again past an overlong problem', () => {
    let calls = 0;
    const flaky: TaskModule = {
      ...reverse,
      id: 'rev-flaky',
      sample: (level, rng) => {
        calls++;
        if (calls > 400 && level === 2) throw new Error('ran out of words');
        if (calls > 400 && level === 3) return { text: 'AB', answer: 'ba' };
        return reverse.sample(level, rng);
      },
    };
    const { family } = entryOf(flaky);
    expect(() => family.sample(2, createRng(1))).toThrow(
      'task "rev-flaky": sample(2) threw: ran out of words',
    );
    expect(() => family.sample(3, createRng(1))).toThrow(
      /sample\(3\) returned "AB", empty or outside/,
    );

    // Longer than any the check drew at level 2 on every other draw: those are drawn again.
    let n = 0;
    const long: TaskModule = {
      ...reverse,
      id: 'rev-long',
      sample: (level, rng) => {
        const p = reverse.sample(level, rng);
        return n++ > 400 && n % 2 === 0 ? { text: p.text + 'aaaa', answer: p.answer } : p;
      },
    };
    const fam = entryOf(long).family;
    for (let i = 0; i < 20; i++) expect(fam.sample(2, createRng(i)).text).toHaveLength(2);
  });

  it('reads its level in words and its unit, with fallbacks, and sets its collapse scenario', () => {
    const said = entryOf({
      ...reverse,
      id: 'rev-words',
      describeLevel: (l) => (l === 3 ? `${l} letters` : l === 4 ? '' : 'x'.repeat(90)),
      collapse: { easy: 3, hard: 5 },
    });
    expect([3, 4, 5].map((l) => said.describeLevel(l))).toEqual([
      '3 letters',
      'level 4',
      'level 5',
    ]);
    expect(said.answerUnit).toEqual(['character', 'characters']);
    expect(said.collapse).toMatchObject({
      easy: 3,
      hard: 5,
      jumpAt: 100,
      keepFailed: 4,
      distill: 0,
    });
    expect(customCollapse(reverse)).toMatchObject({ easy: 2, hard: 3 });
    expect(familyEntry('rev-words')).toBe(said);
  });
});
