import { describe, expect, it } from 'vitest';
import { informativeFirst, type RolloutGroup } from './rollouts.ts';

function group(
  n: number,
  opts: { replayed?: boolean; hint?: string; advantages?: number[] } = {},
): RolloutGroup {
  return {
    group: n,
    prompt: `||${n}+${n}=`,
    hint: opts.hint ?? null,
    scaffold: null,
    replayed: opts.replayed ?? false,
    attempts: (opts.advantages ?? [0, 0]).map((advantage) => ({
      tokens: ['1', '.'],
      probs: [0.9, 0.9],
      answer: '1',
      reward: advantage > 0 ? 1 : 0,
      advantage,
      helped: opts.hint !== undefined,
      written: false,
      shaped: false,
    })),
  };
}

describe('the rollout inspector’s order', () => {
  it('opens on a group with learning signal, not on the replayed easy problems the step drew first', () => {
    const groups = [
      group(0, { replayed: true }),
      group(1, { replayed: true, advantages: [0.7, -0.7] }),
      group(2),
      group(3, { advantages: [1, -1] }),
      group(4, { hint: 'c01', advantages: [1, -1] }),
    ];
    expect(informativeFirst(groups).map((g) => g.group)).toEqual([4, 3, 2, 1, 0]);
  });

  it('keeps the trainer’s order where groups are alike, and where none has signal', () => {
    const groups = [group(0, { replayed: true }), group(1), group(2)];
    expect(informativeFirst(groups).map((g) => g.group)).toEqual([1, 2, 0]);
    expect(informativeFirst([group(0), group(1)]).map((g) => g.group)).toEqual([0, 1]);
  });
});
