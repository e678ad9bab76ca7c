import { describe, expect, it } from 'vitest';
import type { Rng } from '../rng.ts';
import { checkTask, faultText, longestHint, refusalText, sequenceTokens } from './task-check.ts';
import { readTaskModule, type TaskModule } from './task-module.ts';

/** A word of `level` letters from `letters`, and its reverse: a task that passes. */
function reverse(over: Partial<TaskModule> = {}): TaskModule {
  return {
    id: 'rev',
    label: 'Reverse',
    levels: { min: 2, max: 4 },
    sample: (level: number, rng: Rng) => {
      const word = Array.from({ length: level }, () => rng.pick([...'abc'])).join('');
      return { text: word, answer: [...word].reverse().join('') };
    },
    ...over,
  };
}

const refused = (task: TaskModule, context = 128) => {
  const c = checkTask(task, context);
  if (c.ok) throw new Error('the check passed');
  return c.faults.map(faultText);
};

describe('checkTask', () => {
  it('passes a sound task, with its answers’ alphabet and longest sequence per level', () => {
    const c = checkTask(reverse(), 128);
    expect(c).toEqual({
      ok: true,
      checked: {
        answerChars: 'abc',
        maxTokens: [2, 3, 4].map((n) => sequenceTokens('x'.repeat(n), 'x'.repeat(n))),
      },
    });
    // The critique's quote is the longest hint of a short answer; a prefix of a long one.
    expect(longestHint(3)).toBe(17);
    expect(longestHint(30)).toBe(30);
  });

  it('takes the module’s own answerChars over the ones its draws show', () => {
    const c = checkTask(reverse({ answerChars: 'abcz' }), 128);
    expect(c.ok && c.checked.answerChars).toBe('abcz');
  });

  it('names the level where sample throws or returns no { text, answer }', () => {
    const throwing = reverse({
      sample: (level) => {
        if (level === 3) throw new Error('no words of three');
        return { text: 'ab', answer: 'ba' };
      },
    });
    expect(refused(throwing)).toEqual(['level 3: sample threw: no words of three']);
    const bare = reverse({ sample: () => 'ab' as unknown as { text: string; answer: string } });
    expect(refused(bare)[0]).toBe('level 2: sample returned "ab", not { text, answer } as strings');
  });

  it('refuses characters outside the vocabulary and the ones the prompt keeps, naming them', () => {
    const upper = reverse({ sample: () => ({ text: 'aBc', answer: 'cBa' }) });
    expect(refused(upper)[0]).toMatch(
      /^level 2, problem "aBc": its text holds "B" at position 1, not in the vocabulary/,
    );
    const marker = reverse({ sample: () => ({ text: 'abc', answer: 'c=a' }) });
    expect(refused(marker)[0]).toMatch(
      /its answer holds "=" at position 1, which the prompt format keeps/,
    );
    const empty = reverse({ sample: () => ({ text: 'abc', answer: '' }) });
    expect(refused(empty)[0]).toBe('level 2, problem "abc": its answer is empty');
  });

  it('refuses a problem too long for the model’s context with its hint', () => {
    const long = reverse({ sample: (level) => ({ text: 'a'.repeat(40 * level), answer: 'a' }) });
    expect(refused(long)[0]).toMatch(
      /^level 3, problem "a{60}…": it takes 143 tokens with its answer and the longest hint, more than the model's context of 128$/,
    );
    expect(refused(reverse(), 20)[0]).toMatch(/^level 2, problem "\w\w": it takes 26 tokens/);
  });

  it('refuses a sample that does not draw from its rng', () => {
    let n = 0;
    const counting = reverse({ sample: () => ({ text: `a${n % 7}`, answer: String(n++ % 7) }) });
    expect(refused(counting)[0]).toMatch(
      /^level 2, problem "a0": the same seed gave another problem the second time \("a2"\): sample must draw only from its rng$/,
    );
  });

  it('refuses a verify that does not score the reference 1, or throws on it', () => {
    const half = reverse({ verify: () => 0.5 });
    expect(refused(half)[0]).toMatch(/: the reference answer "\w+" verifies as 0.5, not 1$/);
    const nan = reverse({ verify: () => NaN });
    expect(refused(nan)[0]).toMatch(/verifies as NaN, not 1$/);
    const throwing = reverse({
      verify: () => {
        throw new TypeError('answer.foo is undefined');
      },
    });
    expect(refused(throwing)[0]).toMatch(
      /verify threw on the reference answer "\w+": answer.foo is undefined$/,
    );
  });

  it('lists the first fault of every level that has one, and counts what it does not show', () => {
    const task = reverse({
      levels: { min: 1, max: 9 },
      sample: () => ({ text: 'A', answer: 'a' }),
    });
    const c = checkTask(task, 128);
    expect(c.ok).toBe(false);
    if (c.ok) return;
    expect(c.faults.map((f) => f.level)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const text = refusalText('rev', c.faults);
    expect(text.split('\n')).toHaveLength(1 + 5 + 1);
    expect(text).toMatch(/^task "rev" is refused:\n {2}level 1, problem "A": its text holds "A"/);
    expect(text).toMatch(/… and 4 more$/);
  });
});

describe('readTaskModule', () => {
  const sound = { id: 'rev', label: 'Reverse', levels: { min: 1, max: 3 }, sample: () => null };

  it('reads the default export, or else the named exports', () => {
    expect(readTaskModule({ default: sound }).id).toBe('rev');
    expect(readTaskModule(sound).levels).toEqual({ min: 1, max: 3 });
  });

  it.each([
    [{ ...sound, id: 'Rev' }, /task id "Rev": lowercase letters/],
    [{ ...sound, id: 'arithmetic' }, /is a shipped family's; choose another/],
    [
      { ...sound, id: 'custom' },
      /task id "custom" is the page's name for any task; choose another/,
    ],
    [{ ...sound, label: '' }, /task "rev": label "": a non-empty string/],
    [{ ...sound, levels: { min: 3, max: 1 } }, /levels \{"min":3,"max":1\}: \{ min, max \}/],
    [{ ...sound, levels: { min: 0, max: 40 } }, /at most 32/],
    [{ ...sound, sample: 'abc' }, /sample "abc": a function/],
    [{ ...sound, verify: 1 }, /verify 1: a function/],
    [{ ...sound, collapse: { easy: 2, hard: 2 } }, /collapse .*easy < hard/],
    [{ ...sound, collapse: { easy: 1, hard: 5 } }, /levels in 1..3/],
    [{ ...sound, answerChars: 'a|b' }, /answerChars "a\|b": a non-empty string of the characters/],
    [{ ...sound, answerUnit: ['x'] }, /answerUnit \["x"\]: two short strings/],
  ])('refuses a malformed field, naming it (%#)', (exports, message) => {
    expect(() => readTaskModule(exports)).toThrow(message);
  });

  it('refuses what is not an object', () => {
    expect(() => readTaskModule(null)).toThrow(
      /exports an object with id, label, levels and sample/,
    );
  });
});
