import { describe, expect, it } from 'vitest';
import { createRng } from '../rng.ts';
import { arithmeticEntry } from './entry.ts';

describe('arithmetic, read the usual way', () => {
  const reading = arithmeticEntry.reading;

  it('rewrites every number of a problem and an answer most significant digit first', () => {
    expect(reading?.usual('5058+2566')).toBe('8505+6652');
    expect(reading?.usual('75151')).toBe('15157');
  });

  it('agrees with the reference solution on sampled problems', () => {
    const rng = createRng(7);
    for (let level = 1; level <= 8; level++) {
      const p = arithmeticEntry.family.sample(level, rng);
      expect(reading?.usual(p.text)).toBe(`${p.data.a}${p.data.op}${p.data.b}`);
      expect(reading?.usual(p.answer)).toBe(p.data.result);
    }
    expect(reading?.note).toContain('units digit first');
  });
});
