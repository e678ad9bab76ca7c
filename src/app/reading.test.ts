import { describe, expect, it } from 'vitest';
import { notationNote, usualAnswer, usualProblem } from './reading.ts';

describe('reading a task’s text the usual way', () => {
  it('says arithmetic is written units digit first, and reads its prompts and answers back', () => {
    expect(notationNote('arithmetic')).toMatch(/units digit first/);
    // The inspector's prompt: the hint slot (a carry pattern, units first too) is left alone.
    expect(usualProblem('arithmetic', '|c011|5058+2566=')).toBe('8505+6652=');
    expect(usualAnswer('arithmetic', '75151')).toBe('15157');
  });

  it('says nothing where the text reads as written', () => {
    expect(notationNote('listlang')).toBeNull();
    expect(usualProblem('listlang', '||59898>06990,31909>01240=')).toBeNull();
    expect(usualAnswer('arithmetic', '7')).toBeNull();
    expect(usualAnswer('arithmetic', '')).toBeNull();
  });
});
