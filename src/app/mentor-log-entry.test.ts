import { describe, expect, it } from 'vitest';
import type { InterventionRecord } from '../rl/metrics.ts';
import { logEntry } from './mentor-log-entry.ts';

const record = (patch: Partial<InterventionRecord> = {}): InterventionRecord => ({
  step: 120,
  group: 3,
  round: 1,
  problem: '5058+2566',
  diagnosis: {
    cause: 'wrong-digit',
    frontier: 3,
    evidence: '8 of 8 attempts get the 4th digit wrong after 3 right digits',
    confidence: 1,
  },
  hint: 'c01',
  scaffold: '751',
  strength: 2,
  rewards: [1, 0, 1, 1],
  note: '8 of 8 attempts get the 4th digit wrong after 3 right digits; I started the answer with its first 3 digits ("751") and hinted the carries out of the first 2 columns ("c01"); the 4th digit is left to the policy.',
  author: 'rules',
  ...patch,
});

describe('a mentor log row', () => {
  it('says in words what the mentor saw and did, and gives the hint’s notation apart', () => {
    const e = logEntry(record());
    expect(e.said).toMatch(/^8 of 8 attempts get the 4th digit wrong/);
    // The sentence gives the evidence already: not said twice.
    expect(e.evidence).toBeNull();
    expect(e.notation).toEqual([
      { label: 'diagnosis', code: 'wrong-digit at 3 (100%)' },
      { label: 'hint', code: 'c01' },
      { label: 'scaffold', code: '751' },
    ]);
    expect(e.outcome).toBe('3 of 4 right');
  });

  it('gives the evidence where the sentence does not, and why an LLM hint was rejected', () => {
    const e = logEntry(
      record({
        note: 'The LLM agent’s sentence.',
        declined: { by: 'llm', why: 'it reveals the answer' },
      }),
    );
    expect(e.said).toBe('The LLM agent’s sentence.');
    expect(e.evidence).toBe('8 of 8 attempts get the 4th digit wrong after 3 right digits');
    expect(e.declined).toBe('LLM hint rejected: it reveals the answer');
  });

  it('reads a rival’s record, which has no diagnosis or hint', () => {
    const e = logEntry(
      record({
        diagnosis: null,
        hint: null,
        scaffold: null,
        rewards: [1, 0],
        note: 'Put the reference answer 75151 in place of 1 of the 2 failed answers.',
      }),
    );
    expect(e.evidence).toBeNull();
    expect(e.notation).toEqual([]);
    expect(e.outcome).toBe('1 of 2 right');
  });
});
