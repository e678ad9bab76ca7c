import { describe, expect, it } from 'vitest';
import { parseRun } from '../../src/research/results.ts';
import { summarise } from '../../src/research/summary.ts';
import { tablePlots } from './plots.ts';

/** A finished run whose eval reaches `acc` after the jump at step 2. */
function run(method: string, seed: number, acc: number) {
  const steps = [0, 1, 2, 3].map((step) => ({
    step,
    level: step < 2 ? 1 : 2,
    all_fail_frac: step < 2 ? 0 : 1 - acc,
    hinted_frac: 0,
    eval_accuracy: step < 2 ? 1 : acc,
  }));
  const schedule = [
    { step: 0, level: 1 },
    { step: 2, level: 2 },
  ];
  const summary = { method, seed, ...summarise(steps, schedule, '', 1) };
  return parseRun([...steps, { summary }].map((l) => JSON.stringify(l)).join('\n'));
}

describe('tablePlots', () => {
  it('plots every method as median and band over the seeds, the supervised reference on the eval plot only', async () => {
    const plots = await tablePlots({
      task: 'listlang',
      methods: ['none', 'my-mentor'],
      seeds: [1, 2],
      runs: [
        run('none', 1, 0),
        run('none', 2, 0.25),
        run('my-mentor', 1, 0.5),
        run('my-mentor', 2, 1),
      ],
      jump: 2,
      supervised: [
        { points: [{ step: 1, easy: 1, hard: 0.75 }] },
        { points: [{ step: 1, easy: 1, hard: 0.25 }] },
      ],
    });
    expect(Object.keys(plots)).toEqual(['eval_accuracy.svg', 'all_fail_frac.svg']);
    const evalSvg = plots['eval_accuracy.svg'];
    const failSvg = plots['all_fail_frac.svg'];
    expect(evalSvg).toContain(
      'listlang: greedy unhinted eval_accuracy (median of 2 seeds, band: interquartile range)',
    );
    expect(failSvg).toContain('listlang: all_fail_frac (10-step mean, median of 2 seeds');
    for (const svg of [evalSvg, failSvg]) {
      expect(svg).toContain('>none</text>');
      expect(svg).toContain('>my-mentor</text>');
      // A module method is drawn in black, a built-in one in its own colour.
      expect(svg).toMatch(/aria-roledescription="area mark" d="[^"]+" fill="#000"/);
      expect(svg).toMatch(/aria-roledescription="area mark" d="[^"]+" fill="(?!#000")/);
    }
    expect(evalSvg).toContain('>supervised</text>');
    expect(failSvg).not.toContain('supervised');
  });
});
