import { describe, expect, it } from 'vitest';
import { definingFlags } from './reuse.ts';

describe("a run's defining flags", () => {
  it('leave out where it is written and how many threads it ran on, in either spelling', () => {
    expect(
      definingFlags([
        '--method',
        'mentor',
        '--out',
        'runs/a.jsonl',
        '--threads',
        '2',
        '--seed',
        '3',
      ]),
    ).toEqual(['--method', 'mentor', '--seed', '3']);
    expect(definingFlags(['--threads=4', '--seed', '3', '--out=x.jsonl'])).toEqual(['--seed', '3']);
    expect(definingFlags(['--steps', '10'])).toEqual(['--steps', '10']);
  });
});
