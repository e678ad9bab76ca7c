import { describe, expect, it } from 'vitest';
import { promptOf } from '../../rl/intervention.ts';
import { arithmeticProblem, critiqueOf, parseHint, renderHint } from '../../tasks/index.ts';
import { batchOf, ctx, group, listProgramSteps, noCarry, sum } from '../testing/scored-groups.ts';
import { METHODS, createIntervention, methodScalesRewards } from '../methods.ts';
import { OffPolicyGuidance } from './offpolicy.ts';
import { PrefixHints } from './prefix.ts';
import { CritiqueRefinement } from './refine.ts';
import { StaticHints } from './static.ts';
/** Group 0 with every answer to `sum` wrong, group 1 with one right answer to `noCarry`. */
const failedAndPassed = () => [
  group(sum, Array(8).fill('158'), 0),
  group(noCarry, ['716', ...Array(7).fill('1')], 1),
];

describe('rivals', () => {
  it('static hints ignore the failure: same library draw whatever the answers', async () => {
    const s = new StaticHints(4);
    const a = await s.plan(
      batchOf([group(sum, Array(8).fill('158'))], { step: 2 }),
      ctx({ step: 2 }),
    );
    const b = await s.plan(
      batchOf([group(sum, Array(8).fill('999'))], { step: 2 }),
      ctx({ step: 2 }),
    );
    expect(promptOf(a[0].help).hint).toEqual(promptOf(b[0].help).hint);
    expect(parseHint('arithmetic', renderHint(promptOf(a[0].help).hint!)).ok).toBe(true);
  });

  it('static hints learned unhinted draw the same library, learned as the mentor learns', async () => {
    const batch = batchOf([group(sum, Array(8).fill('158'))], { step: 2 });
    const [a] = await new StaticHints(4).plan(batch, ctx({ step: 2 }));
    const [b] = await createIntervention('static-unhinted', 4).plan(batch, ctx({ step: 2 }));
    expect(promptOf(b.help).hint).toEqual(promptOf(a.help).hint);
    expect(a.help).toMatchObject({ kind: 'retry', learn: 'as-sampled' });
    expect(b.help).toMatchObject({ kind: 'retry', learn: 'unhinted-shaped-drawn' });
    expect(b.author).toBe('static-unhinted');
  });

  it("static-cd's hint never renders as the mentor's own for the group, on list programs where most are alike", async () => {
    const cd = createIntervention('static-cd', 3);
    const mentor = createIntervention('mentor', 3);
    let compared = 0;
    for (const { batch, ctx: c } of listProgramSteps(9)) {
      const theirs = new Map(
        (await mentor.plan(batch, c)).map((r) => [r.group, promptOf(r.help).hint]),
      );
      for (const r of await cd.plan(batch, c)) {
        const own = theirs.get(r.group);
        const hint = promptOf(r.help).hint;
        if (!own || !hint) continue;
        compared++;
        expect(renderHint(hint)).not.toBe(renderHint(own));
      }
    }
    expect(compared).toBeGreaterThan(0);
    // Draws that would have been the mentor's were made again.
    expect((await cd.stats?.())?.static_redraws).toBeGreaterThan(0);
  });

  it('the prefix baseline anneals 50% → 25% → nothing on a fixed schedule', async () => {
    const p = new PrefixHints({ fractions: [0.5, 0.25], phaseSteps: 10 });
    const long = arithmeticProblem('+', '4721', '3895'); // 8616 → "6168"
    const batch = batchOf([group(long, Array(8).fill('0000'))], { level: 4 });
    const at = async (s: number) => {
      const [r] = await p.plan(batch, ctx({ stepsAtLevel: s }));
      return r && promptOf(r.help).hint;
    };
    expect(await at(0)).toEqual({ kind: 'prefix', text: '61' });
    expect(await at(12)).toEqual({ kind: 'prefix', text: '6' });
    expect(await at(25)).toBeUndefined();
  });

  it('off-policy guidance puts the reference answer into every all-fail group, first round only', async () => {
    const o = new OffPolicyGuidance('offpolicy');
    const batch = batchOf(failedAndPassed());
    const plan = await o.plan(batch, ctx());
    expect(plan).toEqual([
      expect.objectContaining({
        group: 0,
        help: { kind: 'demonstration', answer: '168', count: 1, weight: 'shaped' },
        author: 'offpolicy',
      }),
    ]);
    expect(promptOf(plan[0].help).hint).toBeUndefined();
    expect(await o.plan(batch, ctx({ round: 2 }))).toEqual([]);
  });

  it('the plain written reference puts the answer into every all-fail group at the plain weight', async () => {
    const o = new OffPolicyGuidance('offpolicy-plain');
    const batch = batchOf(failedAndPassed());
    const plan = await o.plan(batch, ctx());
    expect(plan.map((r) => [r.group, r.help, r.author])).toEqual([
      [0, { kind: 'demonstration', answer: '168', count: 1, weight: 'plain' }, 'offpolicy-plain'],
    ]);
    expect(await o.plan(batch, ctx({ round: 2 }))).toEqual([]);
  });

  it('off-policy guidance as published puts the reference into every group of the level, failed or not', async () => {
    const o = new OffPolicyGuidance('offpolicy-full');
    const easy = arithmeticProblem('+', '12', '34');
    const batch = batchOf([
      ...failedAndPassed(),
      // A replayed easy-level group, the keeper's: left alone.
      group(easy, Array(8).fill('0'), 2),
    ]);
    const plan = await o.plan(batch, ctx());
    expect(o.name).toBe('offpolicy-full');
    expect(plan.map((r) => [r.group, r.help])).toEqual([
      [0, { kind: 'demonstration', answer: '168', count: 1, weight: 'shaped' }],
      [1, { kind: 'demonstration', answer: '716', count: 1, weight: 'shaped' }],
    ]);
    expect(plan[1].author).toBe('offpolicy-full');
    expect(await o.plan(batch, ctx({ round: 2 }))).toEqual([]);
    // The method as published runs its advantages unscaled; every other method scales them.
    expect(methodScalesRewards('offpolicy-full')).toBe(false);
    expect(METHODS.filter((m) => !methodScalesRewards(m))).toEqual(['offpolicy-full']);
    expect(methodScalesRewards('./mine.js')).toBe(true);
  });

  it('critique refinement as published critiques every failed answer and refines each once', async () => {
    const r = new CritiqueRefinement(0.8, false, true);
    const batch = batchOf([
      group(sum, ['9', '158', '158', '7'], 0),
      group(noCarry, ['716', '1', '1', '1'], 1),
    ]);
    const plan = await r.plan(batch, ctx({ groupSize: 4 }));
    expect(r.name).toBe('refine-full');
    expect(plan).toHaveLength(1);
    const help = plan[0].help;
    if (help.kind !== 'refinement') throw new Error('a refinement');
    expect(help.perAnswer?.map((h) => renderHint(h))).toEqual(
      ['9', '158', '158', '7'].map((a) => renderHint(critiqueOf(sum, a, 0.8)!)),
    );
    expect(help.critique).toEqual(help.perAnswer?.[0]);
    // As many refinements join as there are critiques, up to G − 1.
    expect(help.count).toBe(3);
    expect(plan[0].author).toBe('refine-full');
  });

  it('critique refinement shows each all-fail group its most common wrong answer, critiqued', async () => {
    const r = new CritiqueRefinement(0.8);
    const batch = batchOf([
      // 168 is right: 158 (five times) is wrong from its 2nd digit, 9 from its first.
      group(sum, ['9', ...Array(5).fill('158'), '9', '7'], 0),
      group(noCarry, ['716', ...Array(7).fill('1')], 1),
      // 1689 starts with all of 168: marking it would give the answer away.
      group(sum, Array(8).fill('1689'), 2),
    ]);
    const plan = await r.plan(batch, ctx());
    expect(plan).toEqual([
      expect.objectContaining({
        group: 0,
        help: {
          kind: 'refinement',
          critique: { kind: 'critique', attempt: '158', wrongAt: 1 },
          count: 1,
        },
        author: 'refine',
      }),
      expect.objectContaining({
        group: 2,
        help: expect.objectContaining({
          critique: { kind: 'critique', attempt: '1689', wrongAt: null },
        }),
      }),
    ]);
    expect(plan[0].note).toContain('x1_58');
    expect(plan.every((p) => p.help.kind === 'refinement' && !p.help.scaffold)).toBe(true);
    expect(await r.plan(batch, ctx({ round: 2 }))).toEqual([]);
    // The variant that goes on from the mark forces what the critique says is right.
    const fromMark = await new CritiqueRefinement(0.8, true).plan(batch, ctx());
    expect(fromMark.map((p) => promptOf(p.help).scaffold)).toEqual(['1', undefined]);
  });
});
