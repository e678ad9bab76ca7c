import { describe, expect, it } from 'vitest';
import { createRng, familyEntry } from '../../tasks/index.ts';
import type { Reprompt } from '../intervention.ts';
import { checkReprompt, forWaitingGroups, MAX_NOTE_LENGTH } from './checks.ts';

const family = familyEntry('arithmetic').family;
const problem = family.sample(3, createRng(1));
const G = 4;
const good: Reprompt = {
  group: 0,
  help: {
    kind: 'retry',
    hint: { kind: 'length', length: problem.answer.length },
    learn: 'as-sampled',
  },
  note: 'length hint',
  diagnosis: {
    cause: 'carry',
    evidence: 'all four attempts drop a carry',
    confidence: 0.8,
    frontier: 1,
  },
};
const bad = (patch: Record<string, unknown>) => ({ ...good, ...patch }) as unknown as Reprompt;

describe('checkReprompt', () => {
  it('passes a well-formed reprompt', () => {
    expect(() => checkReprompt(good, problem, family, G)).not.toThrow();
  });

  it.each([
    ['no help', { help: undefined }, /its help is none of retry, demonstration, refinement/],
    [
      'a learning nobody knows',
      { help: { kind: 'retry', learn: 'by-heart' } },
      /a retry is learned/,
    ],
    [
      'a demonstration the group cannot hold',
      { help: { kind: 'demonstration', answer: problem.answer, count: G, weight: 'plain' } },
      /a demonstration count must be 1 to 3, got 4/,
    ],
    [
      'a demonstration outside the vocabulary',
      { help: { kind: 'demonstration', answer: 'λ', count: 1, weight: 'plain' } },
      /λ/,
    ],
    [
      'a refinement without a critique',
      { help: { kind: 'refinement', critique: '', count: 1 } },
      /a refinement needs a critique/,
    ],
    [
      'a hint that does not parse',
      { help: { kind: 'retry', hint: { kind: 'length', length: -2 }, learn: 'as-sampled' } },
      /its hint does not parse/,
    ],
    [
      'a scaffold of no answer character',
      { help: { kind: 'retry', scaffold: 'x!', learn: 'as-sampled' } },
      /its scaffold has "x", not an answer character/,
    ],
    [
      'a scaffold as long as an answer may be',
      { help: { kind: 'retry', scaffold: '1'.repeat(family.maxTokens(3)), learn: 'as-sampled' } },
      /its scaffold is as long as an answer may be/,
    ],
    [
      'a distillation weight of 0',
      {
        help: {
          kind: 'retry',
          learn: 'as-sampled',
          distill: { hint: { kind: 'length', length: 4 }, weight: 0 },
        },
      },
      /its distillation weight must be above 0 and at most 10, got 0/,
    ],
    [
      'a distillation hint the family does not read',
      {
        help: {
          kind: 'retry',
          learn: 'as-sampled',
          distill: { hint: { kind: 'uses', ops: ['r'] }, weight: 0.1 },
        },
      },
      /its distillation hint does not parse/,
    ],
    [
      'a distillation scaffold of no answer characters',
      {
        help: {
          kind: 'retry',
          learn: 'as-sampled',
          distill: { hint: { kind: 'length', length: 4 }, scaffold: '1x', weight: 0.1 },
        },
      },
      /its distillation scaffold has "x", not an answer character/,
    ],
    [
      'critiques per answer of no hint',
      {
        help: {
          kind: 'refinement',
          critique: { kind: 'critique', attempt: '1', wrongAt: 0 },
          perAnswer: [null],
          count: 1,
        },
      },
      /its critique per answer 0 is not a hint/,
    ],
    [
      'more critiques per answer than the group has answers',
      {
        help: {
          kind: 'refinement',
          critique: { kind: 'critique', attempt: '1', wrongAt: 0 },
          perAnswer: Array(G + 1).fill({ kind: 'critique', attempt: '1', wrongAt: 0 }),
          count: 1,
        },
      },
      /its critiques per answer must be 1 to 4/,
    ],
    ['a note that is no text', { note: 3 }, /its note is not text/],
    [
      'a note far too long',
      { note: 'x'.repeat(MAX_NOTE_LENGTH + 1) },
      new RegExp(
        `its note is ${MAX_NOTE_LENGTH + 1} characters long \\(at most ${MAX_NOTE_LENGTH}\\)`,
      ),
    ],
    ['an author that is no text', { author: {} }, /its author is not text/],
    [
      'a declined help without a reason',
      { declined: { by: 'llm' } },
      /its declined help's reason is not text/,
    ],
    [
      'a declined help that is no object',
      { declined: 'llm' },
      /its declined help's author is not text/,
    ],
    ['a strength out of range', { strength: 9 }, /its strength must be 0 to 3, got 9/],
    ['a diagnosis that is no object', { diagnosis: 'carry' }, /its diagnosis is not an object/],
    [
      'a diagnosis with a confidence of NaN',
      { diagnosis: { cause: 'carry', evidence: 'e', confidence: Number.NaN } },
      /its diagnosis confidence must be 0 to 1, got NaN/,
    ],
    [
      'a diagnosis with a fractional frontier',
      { diagnosis: { cause: 'carry', evidence: 'e', confidence: 1, frontier: 0.5 } },
      /its diagnosis frontier must be a whole number/,
    ],
  ])('refuses %s', (_what, patch, message) => {
    expect(() => checkReprompt(bad(patch), problem, family, G)).toThrow(message);
  });
});

describe('forWaitingGroups', () => {
  it('keeps one reprompt per waiting group and says why it drops the rest', () => {
    const events: string[] = [];
    const kept = forWaitingGroups(
      'mine',
      [
        null,
        { group: 7 },
        { group: 1.5 },
        { ...good, group: 1 },
        { ...good, group: 1 },
        { ...good, group: 2 },
      ],
      3,
      [1],
      events,
    );
    expect(kept).toEqual([{ ...good, group: 1 }]);
    expect(events).toEqual([
      'a reprompt that is not an object (null) rejected',
      '2 reprompts rejected: no such group in this step (group 7, group 1.5)',
      'reprompt for group 1 rejected: the group has a reprompt already',
    ]);
  });

  it('writes one event per cause however many reprompts a plan repeats it for', () => {
    const events: string[] = [];
    const plan = [
      ...Array.from({ length: 10_000 }, () => ({ ...good, group: 0 })),
      ...Array.from({ length: 5_000 }, (_, i) => ({ ...good, group: 3 + i })),
    ];
    expect(forWaitingGroups('mine', plan, 3, [0], events)).toEqual([{ ...good, group: 0 }]);
    expect(events).toEqual([
      '9,999 reprompts rejected: the group has a reprompt already (group 0)',
      '5,000 reprompts rejected: no such group in this step (group 3, group 4, group 5 and 4,997 more)',
    ]);
  });

  it('costs the round its help when the plan is no list', () => {
    const events: string[] = [];
    expect(forWaitingGroups('mine', { group: 0 }, 3, [0], events)).toEqual([]);
    expect(events).toEqual([
      'mine plan returned object, not a list of reprompts; no help this round',
    ]);
  });
});
