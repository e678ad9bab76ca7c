import { describe, expect, it } from 'vitest';
import { promptOf } from '../../rl/intervention.ts';
import { arithmeticProblem, critiqueOf, parseHint, renderHint } from '../../tasks/index.ts';
import { batchOf, ctx, group, noCarry, sum } from '../testing/scored-groups.ts';
import { METHODS, methodScalesRewards } from '../methods.ts';
import { OffPolicyGuidance } from './offpolicy.ts';
import { PrefixHints } from './prefix.ts';
import { CritiqueRefinement } from './refine.ts';
import { StaticHints } from './static.ts';
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
    const o = new OffPolicyGuidance();
    const batch = batchOf([
      group(sum, Array(8).fill('158'), 0),
      group(noCarry, ['716', ...Array(7).fill('1')], 1),
    ]);
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

  it('off-policy guidance as published puts the reference into every group of the level, failed or not', async () => {
    const o = new OffPolicyGuidance(true);
    const easy = arithmeticProblem('+', '12', '34');
    const batch = batchOf([
      group(sum, Array(8).fill('158'), 0),
      group(noCarry, ['716', ...Array(7).fill('1')], 1),
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
