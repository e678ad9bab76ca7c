import { describe, expect, it } from 'vitest';
import { DEFAULT_MENTOR } from './mentor/mentor.ts';
import {
  CUSTOM,
  METHODS,
  createIntervention,
  rivalMethods,
  takesLlm,
  variantOf,
} from './methods.ts';

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

  it('holds each variant as an entry of its own, naming the method it varies', () => {
    expect(METHODS.filter((m) => variantOf(m) === 'mentor')).toEqual([
      'mentor-importance',
      'mentor-whole',
      'mentor-demonstrate',
      'mentor-no-reminder',
    ]);
    expect(variantOf('refine-from-mark')).toBe('refine');
    expect(variantOf('mentor')).toBeNull();
    expect(variantOf('./mine.js')).toBeNull();
    // Spelled as the varied method's flag, a run keeps that method's label.
    expect(createIntervention('mentor-whole', 1, DEFAULT_MENTOR, 'own', 'mentor').name).toBe(
      'mentor',
    );
  });

  it('refuses a name it does not know, naming the ones it does', () => {
    expect(() => createIntervention('mentorr', 1)).toThrow(
      /unknown method "mentorr"; known: none,/,
    );
  });
});
