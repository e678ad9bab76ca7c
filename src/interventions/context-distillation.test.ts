import { describe, expect, it } from 'vitest';
import type { Intervention, Reprompt } from '../rl/intervention.ts';
import { ContextDistillation, CONTEXT_DISTILL_WEIGHT } from './context-distillation.ts';
import { batchOf, ctx, group, noCarry, sum } from './testing/scored-groups.ts';

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

  it("adds each hinted retry's own hint to distil, and leaves other help as it was", async () => {
    const cd = new ContextDistillation('mentor-cd', inner, false);
    const plan = await cd.plan(two, ctx());
    expect(plan.map(distillOf)).toEqual([
      { hint: length(3), weight: CONTEXT_DISTILL_WEIGHT },
      { hint: length(4), weight: CONTEXT_DISTILL_WEIGHT },
      undefined,
    ]);
    expect(plan[2].help.kind).toBe('demonstration');
    expect(cd.name).toBe('mentor-cd');
  });

  it("distils a placebo: another problem's hint, from this plan or the last one", async () => {
    const cd = new ContextDistillation('placebo-cd', inner, true);
    const plan = await cd.plan(two, ctx());
    expect(plan.map((r) => distillOf(r)?.hint)).toEqual([length(4), length(3), undefined]);
    // One hinted group: the hint remembered from the plan before, of another problem.
    const alone = batchOf([group(sum, ['1'])]);
    expect((await cd.plan(alone, ctx())).map((r) => distillOf(r)?.hint)).toEqual([length(4)]);
    // The same problem as the one remembered: no placebo to take, no distillation.
    expect((await cd.plan(alone, ctx())).map(distillOf)).toEqual([undefined]);
    const fresh = new ContextDistillation('placebo-cd', inner, true);
    expect((await fresh.plan(alone, ctx())).map(distillOf)).toEqual([undefined]);
  });

  it('keeps the remembered hint and the inner state in a snapshot', async () => {
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
