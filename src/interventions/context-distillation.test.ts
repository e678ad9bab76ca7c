import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Intervention, Reprompt } from '../rl/intervention.ts';
import { renderHint, type Hint } from '../tasks/index.ts';
import { ContextDistillation, CONTEXT_DISTILL_WEIGHT } from './context-distillation.ts';
import { createIntervention } from './methods.ts';
import {
  batchOf,
  ctx,
  group,
  listProblem,
  listProgramSteps,
  noCarry,
  oneOpProblem,
  sum,
} from './testing/scored-groups.ts';

const length = (n: number) => ({ kind: 'length', length: n }) as const;

/** Hints each group the length of its answer, and writes the answer of group 2. */
const inner: Intervention = {
  name: 'inner',
  async plan(batch) {
    return batch.groups.map((g): Reprompt =>
      g.group === 2
        ? {
            group: g.group,
            help: { kind: 'demonstration', answer: g.problem.answer, count: 1, weight: 'shaped' },
            note: 'written',
          }
        : {
            group: g.group,
            help: { kind: 'retry', hint: length(g.group + 3), learn: 'unhinted-shaped-drawn' },
            note: 'hinted',
          },
    );
  },
  saveState: () => ({ inner: 'state' }),
};

const distillOf = (r: Reprompt) => (r.help.kind === 'retry' ? r.help.distill : undefined);

describe('context distillation', () => {
  const two = batchOf([group(sum, ['1']), group(noCarry, ['1'], 1), group(sum, ['1'], 2)]);

  it("adds each hinted retry's own hint and scaffold to distil, and leaves other help as it was", async () => {
    const cd = new ContextDistillation('mentor-cd', inner, false);
    const plan = await cd.plan(two, ctx());
    expect(plan.map(distillOf)).toEqual([
      { hint: length(3), weight: CONTEXT_DISTILL_WEIGHT },
      { hint: length(4), weight: CONTEXT_DISTILL_WEIGHT },
      undefined,
    ]);
    expect(plan[2].help.kind).toBe('demonstration');
    expect(cd.name).toBe('mentor-cd');
    const scaffolded = new ContextDistillation('mentor-cd', withScaffold(inner), false);
    expect((await scaffolded.plan(two, ctx())).map((r) => distillOf(r)?.scaffold)).toEqual([
      '1',
      '7',
      undefined,
    ]);
  });

  it("distils a placebo: another problem's hint without the retry's scaffold, from this plan or earlier ones", async () => {
    const cd = new ContextDistillation('placebo-cd', withScaffold(inner), true);
    const plan = await cd.plan(two, ctx());
    expect(plan.map(distillOf)).toEqual([
      { hint: length(4), weight: CONTEXT_DISTILL_WEIGHT },
      { hint: length(3), weight: CONTEXT_DISTILL_WEIGHT },
      undefined,
    ]);
    // One hinted group: a hint remembered from a plan before, of another problem.
    const alone = batchOf([group(sum, ['1'])]);
    expect((await cd.plan(alone, ctx())).map((r) => distillOf(r)?.hint)).toEqual([length(4)]);
    // Nothing remembered of another problem: no placebo to take, no distillation, counted.
    const fresh = new ContextDistillation('placebo-cd', inner, true);
    expect((await fresh.plan(alone, ctx())).map(distillOf)).toEqual([undefined]);
    expect(await fresh.stats()).toEqual({ placebo_redraws: 0, placebo_none: 1 });
  });

  it("draws the placebo again while it renders as the retry's own hint, and says when none differs", async () => {
    // Every group gets the same length hint: no other problem's hint differs from its own.
    const same: Intervention = {
      name: 'same',
      async plan(batch) {
        return batch.groups.map((g): Reprompt => ({
          group: g.group,
          help: { kind: 'retry', hint: length(3), learn: 'unhinted-shaped-drawn' },
          note: 'hinted',
        }));
      },
    };
    const cd = new ContextDistillation('placebo-cd', same, true);
    expect((await cd.plan(two, ctx())).map(distillOf)).toEqual([undefined, undefined, undefined]);
    // Group 0 (sum) passes over noCarry's, group 1 over two of sum's, group 2 over noCarry's.
    expect(await cd.stats()).toEqual({ placebo_redraws: 4, placebo_none: 3 });
  });

  it('never distils a placebo that renders as the hint of its own group (random plans)', async () => {
    const problems = [sum, noCarry, listProblem(), oneOpProblem(1), oneOpProblem(2)];
    const hintArb = fc.oneof(
      fc.integer({ min: 1, max: 4 }).map(length),
      fc.constantFrom('1', '16', '7').map((text) => ({ kind: 'prefix', text }) as const),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.array(fc.record({ p: fc.nat(problems.length - 1), hint: hintArb }), {
            minLength: 1,
            maxLength: 6,
          }),
          { minLength: 1, maxLength: 5 },
        ),
        async (plans) => {
          const cd = new ContextDistillation('placebo-cd', replaying(plans), true);
          for (const plan of plans) {
            const batch = batchOf(plan.map(({ p }, i) => group(problems[p], ['9'], i)));
            for (const r of await cd.plan(batch, ctx())) {
              if (r.help.kind !== 'retry' || !r.help.distill) continue;
              expect(renderHint(r.help.distill.hint)).not.toBe(renderHint(r.help.hint!));
              expect(r.help.distill.scaffold).toBeUndefined();
            }
          }
        },
      ),
    );
  });

  it("never gives the mentor's own hint as the placebo on list programs, where most hints are alike", async () => {
    const cd = createIntervention('placebo-cd', 1);
    let placebos = 0;
    for (const { batch, ctx: c } of listProgramSteps(5)) {
      for (const r of await cd.plan(batch, c)) {
        if (r.help.kind !== 'retry' || !r.help.distill) continue;
        placebos++;
        expect(renderHint(r.help.distill.hint)).not.toBe(renderHint(r.help.hint!));
      }
    }
    expect(placebos).toBeGreaterThan(0);
    // The coincidences were there to avoid: some draws were made again.
    expect((await cd.stats?.())?.placebo_redraws).toBeGreaterThan(0);
  });

  it('keeps the remembered hints, the counts and the inner state in a snapshot', async () => {
    const cd = new ContextDistillation('placebo-cd', inner, true);
    await cd.plan(two, ctx());
    const state = await cd.saveState();
    expect(state).toMatchObject({ inner: { inner: 'state' } });
    const back = new ContextDistillation('placebo-cd', inner, true);
    await back.restoreState(state);
    const alone = batchOf([group(sum, ['1'])]);
    expect((await back.plan(alone, ctx())).map((r) => distillOf(r)?.hint)).toEqual([length(4)]);
  });
});

/** `base`'s plans with each retry's answer start (its problem's first character) forced. */
function withScaffold(base: Intervention): Intervention {
  return {
    name: base.name,
    async plan(batch, c) {
      return (await base.plan(batch, c)).map((r): Reprompt => {
        if (r.help.kind !== 'retry') return r;
        const problem = batch.groups.find((g) => g.group === r.group)!.problem;
        return { ...r, help: { ...r.help, scaffold: problem.answer.slice(0, 1) } };
      });
    },
  };
}

/** Gives the hints of `plans`, one plan a call, in order. */
function replaying(plans: { hint: Hint }[][]): Intervention {
  let call = 0;
  return {
    name: 'replaying',
    async plan(batch) {
      const plan = plans[call++];
      return batch.groups.map((g, i): Reprompt => ({
        group: g.group,
        help: { kind: 'retry', hint: plan[i].hint, learn: 'unhinted-shaped-drawn' },
        note: 'hinted',
      }));
    },
  };
}
