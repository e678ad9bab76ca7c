import type { Intervention, Reprompt, ScoredBatch, TrainContext } from '../../rl/intervention.ts';
import { createRng, getFamily, makeHint, type Strength } from '../../tasks/index.ts';

/**
 * Static hints: every all-fail group gets a hint drawn from a fixed library — a random kind at a
 * random strength, in the hint slot — without looking at why it failed (the off-policy-style
 * baseline the MENTOR paper argues against). Later rounds redraw.
 */
export class StaticHints implements Intervention {
  readonly name = 'static';

  constructor(private readonly seed = 1) {}

  async plan(batch: ScoredBatch, ctx: TrainContext): Promise<Reprompt[]> {
    const out: Reprompt[] = [];
    for (const g of batch.groups) {
      if (!g.attempts.every((a) => a.reward === 0)) continue;
      const rng = createRng(this.seed).fork(`static-${ctx.step}-${ctx.round}-${g.group}`);
      const kind = rng.pick(getFamily(g.problem.family).hintKinds);
      const strength = rng.pick([1, 2, 3] as const satisfies readonly Strength[]);
      const hint =
        makeHint(g.problem, kind, strength, rng) ?? makeHint(g.problem, 'length', 1, rng);
      if (!hint) continue;
      out.push({
        group: g.group,
        help: { kind: 'retry', hint, learn: 'as-sampled' },
        note: `Drew a ${kind} hint at strength ${strength} from the library.`,
        author: 'static',
      });
    }
    return out;
  }
}
