import { describe, expect, it } from 'vitest';
import { pairedRatioInterval } from './paired-stats.ts';
import {
  bestRival,
  protocolMarkdown,
  runFigures,
  supervisedFigures,
  type RunFigures,
} from './protocol-table.ts';
import type { RunRecord } from './results.ts';
import type { EvalPoint } from './summary.ts';

const JUMP = 10;

/** A run whose hard-level eval reaches 0.5 `half` steps after the jump (null: never), at `perStep` tokens a step. */
function run(method: string, seed: number, half: number | null, perStep: number): RunRecord {
  const steps: EvalPoint[] = Array.from({ length: 40 }, (_, step) => ({
    step,
    level: step < JUMP ? 1 : 2,
    all_fail_frac: 0,
    hinted_frac: 0,
    sampled_tokens: perStep,
    rollouts: perStep / 10,
    ...(step >= JUMP && (step - JUMP + 1) % 5 === 0
      ? { eval_accuracy: half !== null && step - JUMP + 1 >= half ? 0.6 : 0.1 }
      : {}),
  }));
  return {
    method,
    seed,
    args: null,
    config: null,
    baseSha256: null,
    methodSha256: null,
    taskSha256: null,
    steps,
    summary: {
      schedule: '0:1,10:2',
      steps_to_recovery: null,
      steps_to_half: half,
      final_eval_accuracy: half === null ? 0.1 : 0.6,
      eval_auc: 0.3,
      late_eval_mean: 0.3,
      mean_hinted_frac: 0,
      mean_all_fail_frac_after_change: 0,
      final_prev_eval_accuracy: 0.9,
      early_rescue_rate: null,
      final_all_eval_accuracy: 0.5,
      lowest_prev_eval_accuracy: 0.5 + seed / 100,
      wall_s: 120,
    },
  };
}

describe('the protocol table', () => {
  const mentor = [10, 15, 10, 20, 15].map((h, i) => run('mentor', i + 1, h, 100));
  const rival = [20, 15, null, 25, 20].map((h, i) => run('offpolicy', i + 1, h, 50));

  it("counts a run's compute from the jump, and its tokens to 0.5 through the step that got there", () => {
    const f = runFigures(mentor[1], JUMP);
    expect(f.stepsToHalf).toBe(15);
    expect(f.tokensToHalf).toBe(15 * 100);
    expect(f.tokens).toBe(30 * 100);
    expect(f.rollouts).toBe(30 * 10);
    const never = runFigures(rival[2], JUMP);
    expect(never.stepsToHalf).toBe(Infinity);
    expect(never.tokensToHalf).toBe(Infinity);
    // A run from before compute was counted has none to give.
    const old = { ...mentor[0], steps: mentor[0].steps.map(({ sampled_tokens: _t, ...p }) => p) };
    expect(runFigures(old, JUMP).tokensToHalf).toBeNull();
  });

  it('prints medians, paired ratios with their intervals, the sign test and compute', () => {
    const md = protocolMarkdown({
      runs: [...rival, ...mentor],
      methods: ['offpolicy', 'mentor'],
      reference: 'mentor',
      jump: JUMP,
    });
    const [head, , rivalRow, mentorRow] = md.split('\n');
    expect(head).toContain('steps to 0.5 ÷ mentor [95% CI]');
    const cells = rivalRow.split(' | ');
    expect(cells[0]).toBe('| offpolicy');
    expect(cells[1]).toBe('5');
    expect(cells[2]).toBe('20 (1/5 never)');
    const steps = pairedRatioInterval([20, 15, Infinity, 25, 20], [10, 15, 10, 20, 15]);
    expect(cells[3]).toBe(
      `${steps.value.toFixed(2)}× [${steps.lo.toFixed(2)}×, ${steps.hi === Infinity ? '∞' : `${steps.hi.toFixed(2)}×`}]`,
    );
    // The mentor was sooner on 4 seeds, tied on one.
    expect(cells[4]).toBe('4/4, p = 0.125');
    // Tokens: the rival samples half as much a step, so it is cheaper per step.
    const tokens = pairedRatioInterval(
      [1000, 750, Infinity, 1250, 1000],
      [1000, 1500, 1000, 2000, 1500],
    );
    expect(cells[8]).toContain(`${tokens.value.toFixed(2)}×`);
    expect(cells[13]).toBe('2k');
    // Runs from before the reference ledger have no characters to give.
    expect(cells[15]).toBe('–');
    expect(cells[16]).toBe('2.0 min |');
    expect(mentorRow.split(' | ')[3]).toBe('–');
    expect(mentorRow.split(' | ')[12]).toBe('51.0%');
    expect(md).toContain('paired bootstrap 95% CI (10,000 resamples of the seeds, seed 1)');
  });

  it('names the best rival by the lowest median tokens to 0.5, then steps, then final accuracy', () => {
    const fig = (tokens: number, steps: number, final: number): RunFigures => ({
      ...runFigures(mentor[0], JUMP),
      tokensToHalf: tokens,
      stepsToHalf: steps,
      final,
    });
    const figures = new Map([
      ['static', [fig(Infinity, Infinity, 0.1)]],
      ['offpolicy', [fig(900, 30, 0.8), fig(1100, 40, 0.8)]],
      ['refine', [fig(1000, 20, 0.9)]],
      ['mentor', [fig(10, 1, 1)]],
    ]);
    // The mentor is no rival; tokens tie at 1000 and refine is sooner in steps.
    expect(bestRival(figures, ['static', 'offpolicy', 'refine', 'prefix'])).toBe('refine');
    figures.set('refine', [fig(1000, 45, 0.9)]);
    expect(bestRival(figures, ['static', 'offpolicy', 'refine'])).toBe('offpolicy');
    figures.set('refine', [fig(1000, 35, 0.95)]);
    figures.set('offpolicy', [fig(1000, 35, 0.9)]);
    expect(bestRival(figures, ['offpolicy', 'refine'])).toBe('refine');
    expect(bestRival(figures, ['prefix'])).toBeNull();
  });

  it('says whether the mentor is ahead of the best rival at matched compute', () => {
    const cheap = [10, 15, 10, 20, 15].map((h, i) => run('refine', i + 1, h + 5, 10));
    const md = protocolMarkdown({
      runs: [...rival, ...cheap, ...mentor],
      methods: ['offpolicy', 'refine', 'mentor'],
      reference: 'mentor',
      jump: JUMP,
      rivals: ['offpolicy', 'refine'],
    });
    const tokens = pairedRatioInterval(
      [15, 20, 15, 25, 20].map((h) => h * 10),
      [10, 15, 10, 20, 15].map((h) => h * 100),
    );
    expect(md).toContain(
      `Best rival by the protocol's rule (the lowest median sampled tokens to 0.5; ties: the median steps to 0.5, then final accuracy): **refine**. Its sampled tokens to 0.5 ÷ mentor's: ${tokens.value.toFixed(2)}× [${tokens.lo.toFixed(2)}×, ${tokens.hi.toFixed(2)}×], so mentor is not measurably ahead of it at matched compute (the interval's lower bound not above 1).`,
    );
    // The mentor ahead: rivals ten and twenty times as costly a step.
    const costly = [20, 25, 20, 30, 25].map((h, i) => run('offpolicy', i + 1, h, 1000));
    const costlier = [20, 25, 20, 30, 25].map((h, i) => run('refine', i + 1, h, 2000));
    const dearer = pairedRatioInterval(
      [20, 25, 20, 30, 25].map((h) => h * 1000),
      [10, 15, 10, 20, 15].map((h) => h * 100),
    );
    expect(dearer.lo).toBeGreaterThan(1);
    expect(
      protocolMarkdown({
        runs: [...costly, ...costlier, ...mentor],
        methods: ['offpolicy', 'refine', 'mentor'],
        reference: 'mentor',
        jump: JUMP,
        rivals: ['offpolicy', 'refine'],
      }),
    ).toContain(
      `**offpolicy**. Its sampled tokens to 0.5 ÷ mentor's: ${dearer.value.toFixed(2)}× [${dearer.lo.toFixed(2)}×, ${dearer.hi.toFixed(2)}×], so mentor is measurably ahead of it at matched compute (the interval's lower bound above 1).`,
    );
  });

  it('names no best rival from some of the rivals, from other seeds, or from uncounted tokens', () => {
    const table = (runs: RunRecord[], methods: string[]) =>
      protocolMarkdown({
        runs,
        methods,
        reference: 'mentor',
        jump: JUMP,
        rivals: ['offpolicy', 'refine'],
      });
    expect(table([...rival, ...mentor], ['offpolicy', 'mentor'])).toContain(
      "The protocol's best rival is not named here: refine did not run in this table (it is chosen from offpolicy, refine, on the same seeds).",
    );
    const fewer = mentor.slice(0, 3).map((r) => ({ ...r, method: 'refine' }));
    expect(table([...rival, ...fewer, ...mentor], ['offpolicy', 'refine', 'mentor'])).toContain(
      'not named here: the rivals ran on different seeds',
    );
    const uncounted = mentor.map((r) => ({
      ...r,
      method: 'refine',
      steps: r.steps.map(({ sampled_tokens: _t, ...p }) => p),
    }));
    expect(table([...rival, ...uncounted, ...mentor], ['offpolicy', 'refine', 'mentor'])).toContain(
      'not named here: some of their runs did not count sampled tokens',
    );
  });

  it('counts the reference ledger from the jump, and gives the supervised reference a row of its own', () => {
    const ledgered = (r: RunRecord, perStep: number): RunRecord => ({
      ...r,
      steps: r.steps.map((p) => ({ ...p, reference_chars: perStep })),
    });
    const runs = [...rival.map((r) => ledgered(r, 40)), ...mentor.map((r) => ledgered(r, 6))];
    expect(runFigures(runs[0], JUMP).referenceChars).toBe(30 * 40);
    // The supervised runs reach 0.5 after 5 updates (seeds 1–4) or never (seed 5).
    const points = (half: boolean) => [
      { step: 0, hard: 0, easy: 1, referenceChars: 0 },
      { step: 5, hard: half ? 0.6 : 0.2, easy: 0.8, referenceChars: 320 },
      { step: 30, hard: half ? 0.9 : 0.3, easy: 0.9, referenceChars: 1920 },
    ];
    const supervised = [1, 2, 3, 4, 5].map((seed) => supervisedFigures(seed, points(seed < 5), 60));
    expect(supervised[0]).toMatchObject({
      stepsToHalf: 5,
      stepsTo08: 30,
      tokensToHalf: 0,
      tokens: 0,
      referenceChars: 1920,
      final: 0.9,
      easyLowest: 0.8,
    });
    expect(supervised[4].tokensToHalf).toBe(Infinity);
    const md = protocolMarkdown({
      runs,
      methods: ['offpolicy', 'mentor'],
      reference: 'mentor',
      jump: JUMP,
      supervised,
    });
    const rows = md.split('\n').filter((l) => l.startsWith('| '));
    expect(rows[0]).toContain('| reference characters shown after the jump (median) |');
    expect(rows[1].split(' | ')[15]).toBe('1k');
    expect(rows[2].split(' | ')[15]).toBe('180');
    const sup = rows[3].split(' | ');
    expect(sup[0]).toBe('| supervised');
    expect(sup[2]).toBe('5 (1/5 never)');
    expect(sup[7]).toBe('0 (1/5 never)');
    expect(sup[15]).toBe('2k');
    expect(md).toContain('The supervised row is the reference handed over');
  });

  it("counts a teacher's tokens as compute where the family's solutions need one", () => {
    const taught = (r: RunRecord, perStep: number): RunRecord => ({
      ...r,
      steps: r.steps.map((p) => ({ ...p, reference_chars: 1, teacher_tokens: perStep })),
    });
    const runs = [...rival.map((r) => taught(r, 25)), ...mentor.map((r) => taught(r, 0))];
    // 15 steps to 0.5 at 50 sampled and 25 teacher tokens a step.
    expect(runFigures(runs[1], JUMP, true)).toMatchObject({
      tokensToHalf: 15 * 75,
      teacherTokens: 30 * 25,
    });
    expect(runFigures(runs[1], JUMP).tokensToHalf).toBe(15 * 50);
    // A run from before teacher tokens were counted has no compute to give such a table.
    expect(runFigures(rival[1], JUMP, true).tokensToHalf).toBeNull();
    const points = [
      { step: 0, hard: 0, easy: 1, referenceChars: 0, teacherChars: 0 },
      { step: 5, hard: 0.6, easy: 0.8, referenceChars: 320, teacherChars: 1100 },
    ];
    expect(supervisedFigures(1, points, 60, true).tokensToHalf).toBe(1100);
    expect(supervisedFigures(1, points, 60).tokensToHalf).toBe(0);
    const md = protocolMarkdown({
      runs,
      methods: ['offpolicy', 'mentor'],
      reference: 'mentor',
      jump: JUMP,
      rivals: ['offpolicy'],
      teacher: true,
    });
    const rows = md.split('\n').filter((l) => l.startsWith('| '));
    const head = rows[0].split(' | ');
    expect(head[7]).toBe('sampled + teacher tokens to 0.5 (median)');
    expect(head[16]).toBe('teacher tokens after the jump (median)');
    expect(rows[1].split(' | ')[16]).toBe('750');
    expect(md).toContain('the lowest median sampled + teacher tokens to 0.5');
  });

  it('leaves the ratios out without a reference method', () => {
    const md = protocolMarkdown({
      runs: rival,
      methods: ['offpolicy'],
      reference: null,
      jump: JUMP,
    });
    expect(md.split('\n')[2].split(' | ')[3]).toBe('–');
    expect(md).not.toContain('Sign test');
  });
});
