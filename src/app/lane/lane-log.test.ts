import { describe, expect, it } from 'vitest';
import type { InterventionRecord } from '../../rl/metrics.ts';
import { fakeStep } from '../testing/fake-metrics.ts';
import { Lane } from './lane.svelte.ts';

const record = (step: number, group: number): InterventionRecord => ({
  step,
  group,
  round: 1,
  problem: 'p',
  diagnosis: null,
  hint: null,
  scaffold: null,
  strength: 0,
  rewards: [],
  note: `s${step}g${group}`,
  author: 'mentor',
});

describe("a lane's mentor log and trainer's notes", () => {
  const lane = new Lane(1);
  lane.restore(
    [
      fakeStep(0, { interventions: [record(0, 0), record(0, 1)], events: ['a', 'b'] }),
      fakeStep(1),
      fakeStep(2, { interventions: [record(2, 5)], events: ['c'] }),
    ],
    3,
  );

  it('lists the latest first, across steps, up to the cap', () => {
    expect(lane.log().map((r) => r.note)).toEqual(['s2g5', 's0g1', 's0g0']);
    expect(lane.log(2).map((r) => r.note)).toEqual(['s2g5', 's0g1']);
    expect(lane.events()).toEqual([
      { step: 2, message: 'c' },
      { step: 0, message: 'b' },
      { step: 0, message: 'a' },
    ]);
    expect(lane.events(1)).toEqual([{ step: 2, message: 'c' }]);
    expect(lane.interventionCount()).toBe(3);
  });
});
