import { describe, expect, it } from 'vitest';
import { CUSTOM, METHODS, createIntervention, rivalMethods, takesLlm } from './methods.ts';

describe('the methods', () => {
  it('each goes by its own name, which runs and tables group by', () => {
    expect(METHODS.map((m) => createIntervention(m, 1).name)).toEqual(METHODS);
  });

  it('marks as rivals the forms the protocol picks its best rival from (docs/protocol.md)', () => {
    const rivals = [
      'static',
      'static-unhinted',
      'prefix',
      'offpolicy',
      'offpolicy-full',
      'offpolicy-plain',
      'refine',
      'refine-full',
    ];
    expect(rivalMethods(false)).toEqual(rivals);
    // The answer alone is a rival of its own only where the teacher's solution is more than it.
    expect(rivalMethods(true)).toEqual([
      ...rivals.slice(0, 6),
      'offpolicy-answer',
      ...rivals.slice(6),
    ]);
  });

  it('says in the registry which methods the language-model agent can join', () => {
    expect(METHODS.filter(takesLlm)).toEqual(['mentor']);
    expect(takesLlm(CUSTOM)).toBe(false);
    expect(takesLlm('./mine.js')).toBe(false);
  });

  it('refuses a name it does not know, naming the ones it does', () => {
    expect(() => createIntervention('mentorr', 1)).toThrow(
      /unknown method "mentorr"; known: none,/,
    );
  });
});
