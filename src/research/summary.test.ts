import { describe, expect, it } from 'vitest';
import { methodRows, parseRun, resultsMarkdown } from './results.ts';
import { lastChangeStep, retentionAndRescue, summarise, type EvalPoint } from './summary.ts';

const schedule = [
  { step: 0, level: 3 },
  { step: 10, level: 4 },
];

function rows(evals: Record<number, number>, steps = 40): EvalPoint[] {
  return Array.from({ length: steps }, (_, step) => ({
    step,
    level: step < 10 ? 3 : 4,
    all_fail_frac: step < 10 ? 0 : 1,
    hinted_frac: step < 10 ? 0 : 0.5,
    ...(evals[step] !== undefined ? { eval_accuracy: evals[step] } : {}),
  }));
}

describe('run summary', () => {
  it('counts steps to recovery from the last level change, in updates', () => {
    const s = summarise(rows({ 9: 0.95, 19: 0.01, 29: 0.6, 39: 0.85 }), schedule, '0:3,10:4', 1.5);
    // The eval after step 39 has seen 30 updates at level 4.
    expect(s.steps_to_recovery).toBe(30);
    expect(s.steps_to_half).toBe(20);
    expect(s.final_eval_accuracy).toBe(0.85);
    expect(s.eval_auc).toBeCloseTo((0.01 + 0.6 + 0.85) / 3);
    expect(s.mean_all_fail_frac_after_change).toBe(1);
  });

  it('says never (null) when the threshold is not reached', () => {
    const s = summarise(rows({ 19: 0.01, 39: 0.02 }), schedule, '0:3,10:4', 1);
    expect(s.steps_to_recovery).toBeNull();
    expect(s.steps_to_half).toBeNull();
  });
});

describe('retention and rescue', () => {
  it('reads the easy level at the last eval and the rescue rate per helped group', () => {
    const steps: EvalPoint[] = [
      { step: 0, level: 3, all_fail_frac: 0, hinted_frac: 0 },
      { step: 1, level: 4, all_fail_frac: 1, hinted_frac: 0.5, rescue_rate: 1 },
      { step: 2, level: 4, all_fail_frac: 1, hinted_frac: 0.25, rescue_rate: 0 },
      {
        step: 3,
        level: 4,
        all_fail_frac: 1,
        hinted_frac: 0,
        rescue_rate: 0,
        eval_accuracy_prev: 0.9,
      },
      { step: 4, level: 4, all_fail_frac: 0, hinted_frac: 0, eval_accuracy_prev: 0.4 },
    ];
    expect(lastChangeStep(steps)).toBe(1);
    // 2 of 4 groups helped and rescued at step 1, 1 of 4 helped and not at step 2: 2 of 3.
    expect(retentionAndRescue(steps, 1)).toEqual({
      final_prev_eval_accuracy: 0.4,
      early_rescue_rate: 2 / 3,
      final_all_eval_accuracy: null, // no eval at the hard level yet
      lowest_prev_eval_accuracy: 0.4,
    });
    expect(retentionAndRescue(steps.slice(0, 1), 0)).toEqual({
      final_prev_eval_accuracy: null,
      early_rescue_rate: null,
      final_all_eval_accuracy: null,
      lowest_prev_eval_accuracy: null,
    });
    // The whole skill at the last eval: its own figure, else the mean of the two levels.
    const evals: EvalPoint[] = [
      ...steps,
      {
        step: 5,
        level: 4,
        all_fail_frac: 0,
        hinted_frac: 0,
        eval_accuracy: 0.8,
        eval_accuracy_prev: 0.6,
      },
    ];
    expect(retentionAndRescue(evals, 1)).toMatchObject({
      final_all_eval_accuracy: 0.7,
      lowest_prev_eval_accuracy: 0.4,
    });
    evals[5] = { ...evals[5], eval_accuracy_all: 0.5 };
    expect(retentionAndRescue(evals, 1).final_all_eval_accuracy).toBe(0.5);
  });

  it('fills them in from the steps of a run summarised before they existed', () => {
    const text = [
      JSON.stringify({ step: 0, level: 3, all_fail_frac: 0, hinted_frac: 0 }),
      JSON.stringify({ step: 1, level: 4, all_fail_frac: 1, hinted_frac: 1, rescue_rate: 0.5 }),
      JSON.stringify({
        step: 2,
        level: 4,
        all_fail_frac: 1,
        hinted_frac: 0,
        eval_accuracy_prev: 0.7,
      }),
      JSON.stringify({ summary: { method: 'refine', seed: 1, final_eval_accuracy: 0 } }),
    ].join('\n');
    const { summary } = parseRun(text);
    expect(summary.final_prev_eval_accuracy).toBe(0.7);
    expect(summary.early_rescue_rate).toBe(0.5);
    const [row] = methodRows([parseRun(text)], ['refine']);
    expect(resultsMarkdown([row])).toMatch(/\| 50\.0% \| 70\.0% \| 70\.0% \| – \|$/);
  });
});

describe('results table', () => {
  it('reads runs back and tabulates them per method', () => {
    const line = (method: string, seed: number, rec: number | null, fin: number) =>
      [
        JSON.stringify({ step: 0, level: 4, all_fail_frac: 1, hinted_frac: 0 }),
        JSON.stringify({
          summary: {
            method,
            seed,
            ...summarise(rows({ 39: fin }), schedule, '', 1),
            steps_to_recovery: rec,
          },
        }),
      ].join('\n');
    const runs = [
      parseRun(line('none', 1, null, 0)),
      parseRun(line('mentor', 1, 300, 0.9)),
      parseRun(line('mentor', 2, 500, 0.8)),
    ];
    const [none, mentor] = methodRows(runs, ['none', 'mentor']);
    expect(none).toMatchObject({ runs: 1, recovered: 0, finalMean: 0 });
    expect(mentor).toMatchObject({ runs: 2, recovered: 2, recoverySteps: [300, 500] });
    expect(mentor.finalMean).toBeCloseTo(0.85);
    const md = resultsMarkdown([none, mentor]);
    expect(md).toContain('| none | 0.0% ± 0.0% | never (0/1) |');
    // The protocol's median: of an even count the mean of the middle two, a never as never.
    expect(md).toContain('median 400 (2/2: 300, 500)');
    const once = methodRows([...runs, parseRun(line('none', 2, 700, 0.9))], ['none'])[0];
    expect(resultsMarkdown([once])).toContain('median never (1/2: 700)');
    expect(() => parseRun('{"step":0}')).toThrow(/no summary/);
  });
});
