import { describe, expect, it } from 'vitest';
import { arithmeticProblem, createArithmetic, worked, workedProblem } from '../tasks/index.ts';
import { describeRollouts } from './rollouts.ts';
import { writtenAttempt } from './sampler.ts';

describe('the rollout inspector’s data', () => {
  it('marks the first broken step of a failed answer where the family reads working', () => {
    const p = workedProblem('47281', 6); // 60,84,61,34,82>283686
    const answers = ['60,84,21,34,82>284686', '60,84,61,34,82>283686', '60,84,61,34>3416'];
    const [g] = describeRollouts(
      worked,
      [
        {
          problem: p,
          cue: {},
          attempts: answers.map((a) => writtenAttempt(worked, p, a)),
          reprompt: null,
        },
      ],
      new Float32Array(3),
      3,
      5,
    );
    expect(g.attempts.map((a) => a.broken)).toEqual([
      { at: 6, end: 8 },
      undefined,
      { at: 11, end: 12 },
    ]);
  });

  it('marks nothing where the answer is the whole of the work', () => {
    const p = arithmeticProblem('+', '472', '389');
    const family = createArithmetic({ ops: ['+'] });
    const [g] = describeRollouts(
      family,
      [{ problem: p, cue: {}, attempts: [writtenAttempt(family, p, '999')], reprompt: null }],
      new Float32Array(1),
      1,
      3,
    );
    expect(g.attempts[0].broken).toBeUndefined();
    expect(g.attempts[0].reward).toBe(0);
  });
});
