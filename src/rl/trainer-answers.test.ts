import { describe, expect, it } from 'vitest';
import { commonPrefix, decode, renderHint, type Hint } from '../tasks/index.ts';
import type { Help, Intervention, Reprompt, Retry } from './intervention.ts';
import {
  banditTrainer,
  demonstration,
  oneHelpedStep,
  recordUpdates,
  trainedRows,
  writtenAnswerStep,
} from './testing/trainer-probes.ts';

/**
 * One step of two bandit groups retried under a length hint with the rewarded scaffold b, learned
 * as `retry` says, one unhelped failure kept beside the re-attempts.
 */
const scaffoldedRetryStep = (retry: Pick<Retry, 'learn' | 'creditScaffold'>) =>
  oneHelpedStep(
    { kind: 'retry', hint: { kind: 'length', length: 7 }, scaffold: 'b', ...retry },
    2,
    { keepFailed: 1 },
  );

describe('GRPO trainer: how helped answers join a group and are learned', () => {
  it('a demonstration from the intervention joins the failed group, scored and shaped', async () => {
    const { trainer, updates, m } = await writtenAnswerStep(3, ([a, b, d]) => [
      { group: a.group, help: demonstration(a.problem.answer, 1), note: 'one' },
      // Invalid: a count the group cannot hold, and help of no known channel.
      { group: b.group, help: demonstration(b.problem.answer, 4), note: 'too many' },
      {
        group: d.group,
        help: { kind: 'hint', hint: { kind: 'length', length: 3 } } as unknown as Help,
        note: 'no such channel',
      },
    ]);
    // An untrained policy fails everything: only the valid reprompt changes its group.
    expect(m.all_fail_frac).toBe(1);
    expect(m.events).toEqual([
      'reprompt for group 1 rejected: a demonstration count must be 1 to 3, got 4',
      'reprompt for group 2 rejected: its help is none of retry, demonstration, refinement',
    ]);
    expect(m.interventions).toEqual([
      expect.objectContaining({
        group: 0,
        hint: null,
        scaffold: null,
        strength: 3,
        rewards: [1],
        author: 'writer',
      }),
    ]);
    const [helped, untouched] = trainer.rollouts;
    expect(helped.attempts.map((a) => a.written)).toEqual([false, false, false, true]);
    expect(helped.attempts.map((a) => a.reward)).toEqual([0, 0, 0, 1]);
    expect(helped.attempts[3].advantage).toBeGreaterThan(0);
    expect(helped.attempts[0].advantage).toBeLessThan(0);
    expect(untouched.attempts.every((a) => !a.written && a.advantage === 0)).toBe(true);
    // The update learned from the mixed group; written answers count in neither entropy nor length.
    expect(m.grad_norm).not.toBeNull();
    expect(Number.isFinite(m.entropy) && Number.isFinite(m.loss)).toBe(true);
    expect(m.skipped_steps).toBe(0);
    // The update saw the one informative group: its own three failures pushed down on their
    // tokens, the written answer pushed up (shaped) on exactly its answer and end tokens.
    expect(updates).toHaveLength(1);
    const answer = helped.attempts[3].answer;
    const rows = trainedRows(updates);
    const written = rows.filter((r) => r.text.endsWith(`=${answer}.`));
    expect(written).toHaveLength(1);
    expect(written[0].taking).toHaveLength(answer.length + 1);
    expect(written[0].taking.every((x) => x > 0)).toBe(true);
    const own = rows.filter((r) => r !== written[0]);
    expect(own.every((r) => r.taking.length > 0 && r.taking.every((x) => x < 0))).toBe(true);
  });

  it("counts the reference ledger: each help's characters of the reference, once per group and help", async () => {
    // How much of the scaffold below one of the group's own answers wrote (its teacher tokens aside).
    let own = 0;
    const { m } = await writtenAnswerStep(4, ([a, b, c, d]) => {
      own = Math.max(
        ...b.attempts.map((x) => commonPrefix(x.answer, b.problem.answer.slice(0, 2))),
      );
      return [
        // A written answer: all of it.
        { group: a.group, help: demonstration(a.problem.answer, 1), note: 'written' },
        // A prefix hint and a scaffold that overlap: the longer start, once.
        {
          group: b.group,
          help: {
            kind: 'retry',
            hint: { kind: 'prefix', text: b.problem.answer.slice(0, 1) },
            scaffold: b.problem.answer.slice(0, 2),
            learn: 'as-sampled',
          },
          note: 'prefix and scaffold',
        },
        // A critique whose quoted attempt is right for its first character, and a carry pattern.
        {
          group: c.group,
          help: {
            kind: 'refinement',
            critique: { kind: 'critique', attempt: `${c.problem.answer[0]}x`, wrongAt: 1 },
            count: 1,
          },
          note: 'critique',
        },
        {
          group: d.group,
          help: { kind: 'retry', hint: { kind: 'carries', carries: '1' }, learn: 'as-sampled' },
          note: 'carries',
        },
      ];
    });
    const n = (i: number) => m.interventions[i].answer_chars as number;
    expect(m.interventions.map((r) => [r.group, r.reference_chars])).toEqual([
      [0, n(0)],
      [1, 2],
      [2, 1],
      [3, 0],
    ]);
    expect(n(0)).toBeGreaterThanOrEqual(3);
    expect(m.reference_chars).toBe(n(0) + 2 + 1);
    // Teacher tokens: the written answer whole, the prefix hint's text and the scaffold beyond what
    // the group's own answers wrote; the policy's own critique and a carry pattern are none.
    expect(m.teacher_tokens).toBe(n(0) + 1 + 2 - own);
    // A step without help shows none.
    const plain = await writtenAnswerStep(2, () => []);
    expect(plain.m.reference_chars).toBe(0);
    expect(plain.m.teacher_tokens).toBe(0);
  });

  it('a plain demonstration takes the weight of a sampled answer, a shaped one less', async () => {
    const { trainer, updates } = await writtenAnswerStep(2, ([a, b]) => [
      { group: a.group, help: demonstration(a.problem.answer, 1, 'plain'), note: 'plain' },
      { group: b.group, help: demonstration(b.problem.answer, 1), note: 'shaped' },
    ]);
    const rows = trainedRows(updates);
    const [plainGroup, shapedGroup] = trainer.rollouts;
    const writtenRow = (g: (typeof trainer.rollouts)[number]) =>
      rows.find((r) => r.text.endsWith(`=${g.attempts[3].answer}.`) && r.taking.length > 0)!;
    // Every trained token of every answer carries the same 1/tokens share: the plain answer's
    // weight is that share times its advantage on every token, as a sampled answer's would be.
    const sampled = rows.find((r) => r.taking.length > 0 && r.taking[0] < 0)!;
    const share = sampled.taking[0] / plainGroup.attempts[0].advantage;
    const plain = writtenRow(plainGroup).taking;
    for (const w of plain) expect(w).toBeCloseTo(share * plainGroup.attempts[3].advantage, 6);
    // The shaped one is weighted by f'(p) < 1 on tokens an untrained policy finds unlikely.
    const shaped = writtenRow(shapedGroup).taking;
    for (const w of shaped) expect(w).toBeLessThan(0.5 * share * shapedGroup.attempts[3].advantage);
  });

  it('a refinement under a critique joins the group, passing ones first, learned unhinted and shaped', async () => {
    const critique = { kind: 'critique', attempt: 'z', wrongAt: 0 } as const;
    const refiner: Intervention = {
      name: 'refiner',
      async plan(batch): Promise<Reprompt[]> {
        if (batch.round > 0) return [];
        const [a, b, d] = batch.groups;
        return [
          { group: a.group, help: { kind: 'refinement', critique, count: 1 }, note: 'refine' },
          // Invalid: no critique to refine from, and a count the group cannot hold.
          {
            group: b.group,
            help: { kind: 'refinement', count: 1 } as unknown as Help,
            note: 'no critique',
          },
          { group: d.group, help: { kind: 'refinement', critique, count: 4 }, note: 'too many' },
        ];
      },
    };
    const trainer = banditTrainer(3, refiner);
    const updates = recordUpdates(trainer.model);
    const m = await trainer.trainStep();
    expect(m.events).toEqual([
      'reprompt for group 1 rejected: a refinement needs a critique',
      'reprompt for group 2 rejected: a refinement count must be 1 to 3, got 4',
    ]);
    // All G refinements were sampled (the log shows them); this seed draws both kinds.
    const [record] = m.interventions;
    expect(record).toMatchObject({ group: 0, hint: 'x_z', author: 'refiner' });
    expect(record.rewards).toHaveLength(4);
    expect(record.rewards).toContain(0);
    expect(record.rewards).toContain(1);
    const [helped] = trainer.rollouts;
    const refined = helped.attempts.map((a) => a.shaped);
    expect(refined).toEqual([false, false, false, true]);
    expect(helped.attempts[3].reward).toBe(1); // a passing refinement is the one chosen
    expect(helped.attempts[3].written).toBe(false);
    // The chosen refinement is trained in the unhinted prompt, pushed up on its answer tokens.
    const rows = trainedRows(updates);
    expect(rows.every((r) => !r.text.includes('x_z'))).toBe(true);
    const { tokens } = helped.attempts[3];
    const mine = rows.filter((r) => r.text === `^||1+1=${tokens.join('')}`);
    expect(mine).toHaveLength(1);
    expect(mine[0].taking).toHaveLength(tokens.length);
    expect(mine[0].taking.every((x) => x > 0)).toBe(true);
  });

  it('a refinement with a critique per answer samples one refinement under each', async () => {
    const critique = (attempt: string) => ({ kind: 'critique', attempt, wrongAt: 0 }) as const;
    const refiner: Intervention = {
      name: 'refiner',
      async plan(batch): Promise<Reprompt[]> {
        if (batch.round > 0) return [];
        const [a, b] = batch.groups;
        const each = [critique('z'), critique('q'), critique('r')];
        return [
          {
            group: a.group,
            help: { kind: 'refinement', critique: each[0], perAnswer: each, count: 2 },
            note: 'each',
          },
          {
            group: b.group,
            help: { kind: 'refinement', critique: each[0], perAnswer: each.slice(0, 2), count: 3 },
            note: 'too many',
          },
        ];
      },
    };
    const trainer = banditTrainer(2, refiner);
    const m = await trainer.trainStep();
    expect(m.events).toEqual([
      'reprompt for group 1 rejected: a refinement count of 3 needs as many critiques per answer, got 2',
    ]);
    // One refinement per critique was sampled (three, not G), and two join the group.
    expect(m.interventions[0].rewards).toHaveLength(3);
    expect(m.rollouts).toBe(2 * 4 + 3);
    const [helped] = trainer.rollouts;
    expect(helped.attempts.map((a) => a.shaped)).toEqual([false, false, true, true]);
  });

  it('context distillation learns the hinted re-attempts in the unhinted prompt, at its weight', async () => {
    const hint = { kind: 'length', length: 1 } as const;
    const step = async (distillHint: Hint) => {
      const { m, updates } = await oneHelpedStep({
        kind: 'retry',
        hint,
        learn: 'as-sampled',
        distill: { hint: distillHint, weight: 0.5 },
      });
      const rows = trainedRows(updates);
      // Rows without the hint are the distilled ones: every re-attempt's drawn tokens.
      const hinted = renderHint(hint);
      const distilled = rows.filter((r) => !r.text.includes(hinted) && r.taking.length > 0);
      return { m, distilled, hinted };
    };
    const own = await step(hint);
    expect(own.m.context_distilled).toBe(4);
    expect(own.m.rollouts).toBe(4 + 4);
    expect(own.distilled).toHaveLength(4);
    // λ per token, averaged over the distilled tokens: the weights sum to λ.
    const total = own.distilled.flatMap((r) => r.taking).reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(0.5, 5);
    expect(own.distilled.every((r) => r.text.startsWith('^||1+1='))).toBe(true);
    // Another hint (a placebo): G more answers are drawn under it, and those are distilled.
    const other = await step({ kind: 'length', length: 2 });
    expect(other.m.context_distilled).toBe(4);
    expect(other.m.rollouts).toBe(4 + 4 + 4);
    expect(other.m.sampled_tokens).toBeGreaterThan(own.m.sampled_tokens ?? 0);
    expect(other.distilled).toHaveLength(4);
  });

  it('a refinement that went on from a scaffold is learned whole, its forced start included', async () => {
    const { trainer, updates, m } = await oneHelpedStep({
      kind: 'refinement',
      critique: { kind: 'critique', attempt: 'z', wrongAt: 0 },
      scaffold: 'a', // forced: every refinement passes
      count: 1,
    });
    expect(m.interventions[0].rewards).toEqual([1, 1, 1, 1]);
    const [g] = trainer.rollouts;
    const refinement = g.attempts[3];
    expect(refinement.shaped).toBe(true);
    expect(refinement.tokens[0]).toBe('a');
    expect(refinement.probs[0]).toBeNaN(); // forced, not drawn
    const rows = trainedRows(updates);
    const mine = rows.filter((r) => r.text === `^||1+1=${refinement.tokens.join('')}`);
    expect(mine).toHaveLength(1);
    expect(mine[0].taking).toHaveLength(refinement.tokens.length);
    expect(mine[0].taking.every((x) => x > 0)).toBe(true);
  });

  it('a retry learned unhinted-shaped has every re-attempt learned whole and shaped, in the unhinted prompt', async () => {
    const { trainer, updates } = await scaffoldedRetryStep({ learn: 'unhinted-shaped' });
    for (const g of trainer.rollouts) {
      expect(g.attempts.map((a) => a.shaped)).toEqual([false, true, true, true]);
      expect(g.attempts.slice(1).every((a) => a.tokens[0] === 'b')).toBe(true);
    }
    const rows = trainedRows(updates).map((r) => r.text);
    // Re-attempts in the unhinted prompt with their scaffold; the kept failure as drawn.
    // (A group whose kept answer passes too is all-equal and not trained on.)
    const reattempts = rows.filter((t) => t.startsWith('^||1+1=b')).length;
    expect(reattempts).toBeGreaterThan(0);
    expect(reattempts % 3).toBe(0);
    expect(rows.every((t) => !t.includes('#7'))).toBe(true);
  });

  it('a retry learned unhinted-shaped-drawn shapes only the drawn tokens; a credited scaffold keeps the plain weight', async () => {
    const weightsOf = async (learn: 'unhinted-shaped' | 'unhinted-shaped-drawn') => {
      const { updates } = await scaffoldedRetryStep({ learn, creditScaffold: true });
      // Every re-attempt passes (b is rewarded): per row, the forced b's weight and the others'.
      return updates.flatMap(({ batch, weights }) =>
        Array.from({ length: batch.B }, (_, i) => {
          const row = batch.tokens.subarray(i * batch.T, (i + 1) * batch.T);
          const w = weights!.subarray(i * batch.T, (i + 1) * batch.T);
          const at = decode(row).indexOf('=b');
          if (at < 0) return [];
          // The weight of a token sits at the position before it.
          return [{ forced: w[at], drawn: Array.from(w.subarray(at + 1)).filter((x) => x) }];
        }).flat(),
      );
    };
    const sampled = await weightsOf('unhinted-shaped-drawn');
    const whole = await weightsOf('unhinted-shaped');
    expect(sampled.length).toBeGreaterThan(0);
    // Shaping weighs a token by γp/(p + γ)² ≤ 1/4 of the plain weight.
    for (const r of sampled) {
      expect(r.forced).toBeGreaterThan(0);
      expect(r.drawn.every((x) => x > 0 && x <= r.forced / 4 + 1e-9)).toBe(true);
    }
    // Whole: the forced b is shaped too, far under its plain weight.
    sampled.forEach((r, i) => expect(whole[i].forced).toBeLessThan(r.forced / 4 + 1e-9));
  });
});
