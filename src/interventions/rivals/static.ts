import type {
  Intervention,
  Reprompt,
  RetryLearning,
  ScoredBatch,
  TrainContext,
} from '../../rl/intervention.ts';
import {
  createRng,
  getFamily,
  makeHint,
  renderHint,
  type Hint,
  type Problem,
  type Rng,
  type Strength,
} from '../../tasks/index.ts';

/** Draws of a static hint for one group before it gives up on one unlike the avoided method's. */
export const STATIC_DRAWS = 20;

export interface StaticOptions {
  /** The method's name in runs and tables. */
  name: string;
  /**
   * How the re-attempts are learned: `as-sampled` under the hint (the library as it stands), or
   * in the bare prompt as the mentor learns its own (`unhinted-shaped-drawn`): the same hints
   * through the mentor's channel.
   */
  learn: RetryLearning;
  /**
   * A method whose hints these must not be (a control of it): it is shown every batch and
   * outcome as if it ran, and a drawn hint that renders as its hint for the same group is drawn
   * again, up to STATIC_DRAWS times; the group gets no hint where every draw coincides.
   */
  unlike?: Intervention;
}

/**
 * Static hints: every all-fail group gets a hint drawn from a fixed library — a random kind at a
 * random strength, in the hint slot — without looking at why it failed (the off-policy-style
 * baseline the MENTOR paper argues against). Later rounds redraw.
 */
export class StaticHints implements Intervention {
  readonly name: string;
  private readonly opts: StaticOptions;
  /** Draws made again because they rendered as the avoided method's, and groups left without. */
  private counts = { redraws: 0, none: 0 };

  constructor(
    private readonly seed = 1,
    opts: Partial<StaticOptions> = {},
  ) {
    this.opts = { name: 'static', learn: 'as-sampled', ...opts };
    this.name = this.opts.name;
  }

  async plan(batch: ScoredBatch, ctx: TrainContext): Promise<Reprompt[]> {
    const avoided = await this.avoidedHints(batch, ctx);
    const out: Reprompt[] = [];
    for (const g of batch.groups) {
      if (!g.attempts.every((a) => a.reward === 0)) continue;
      const rng = createRng(this.seed).fork(`static-${ctx.step}-${ctx.round}-${g.group}`);
      const avoid = avoided.get(g.group);
      let drawn = draw(g.problem, rng);
      for (let k = 1; drawn && avoid && renderHint(drawn.hint) === avoid; k++) {
        if (k === STATIC_DRAWS) {
          drawn = null;
          break;
        }
        this.counts.redraws++;
        drawn = draw(g.problem, rng);
      }
      if (!drawn) {
        if (avoid) this.counts.none++;
        continue;
      }
      const { kind, strength, hint } = drawn;
      out.push({
        group: g.group,
        help: { kind: 'retry', hint, learn: this.opts.learn },
        note: `Drew a ${kind} hint at strength ${strength} from the library.`,
        author: this.name,
      });
    }
    return out;
  }

  /** The avoided method's rendered hint for each group it would help with one. */
  private async avoidedHints(batch: ScoredBatch, ctx: TrainContext): Promise<Map<number, string>> {
    const planned = (await this.opts.unlike?.plan(batch, ctx)) ?? [];
    const hints = new Map<number, string>();
    for (const r of planned)
      if (r.help.kind === 'retry' && r.help.hint) hints.set(r.group, renderHint(r.help.hint));
    return hints;
  }

  async observe(retry: ScoredBatch, ctx: TrainContext): Promise<void> {
    await this.opts.unlike?.observe?.(retry, ctx);
  }

  /** The avoided method's state and the counts, so a resumed run draws as it would have. */
  async saveState(): Promise<unknown> {
    if (!this.opts.unlike) return null;
    return { unlike: (await this.opts.unlike.saveState?.()) ?? null, counts: this.counts };
  }

  async restoreState(state: unknown): Promise<void> {
    const { unlike, counts } = (state ?? {}) as {
      unlike?: unknown;
      counts?: StaticHints['counts'];
    };
    this.counts = counts ?? { redraws: 0, none: 0 };
    if (unlike !== null && unlike !== undefined) await this.opts.unlike?.restoreState?.(unlike);
  }

  /** With a method to be unlike: the redraws and the groups left without a hint, so far. */
  stats(): Record<string, number> {
    if (!this.opts.unlike) return {};
    return { static_redraws: this.counts.redraws, static_unlike_none: this.counts.none };
  }
}

const STRENGTHS = [1, 2, 3] as const satisfies readonly Strength[];

/**
 * One draw from the library: a kind, a strength, a true hint of them — where the kind has none at
 * that strength, a length where the family reads one, else the kind at the first strength it has
 * (worked's one kind, the number of columns, exists at strength 1 only).
 */
function draw(
  problem: Problem,
  rng: Rng,
): { kind: Hint['kind']; strength: Strength; hint: Hint } | null {
  const kinds = getFamily(problem.family).hintKinds;
  const kind = rng.pick(kinds);
  const strength = rng.pick(STRENGTHS);
  const hint =
    makeHint(problem, kind, strength, rng) ??
    (kinds.includes('length') ? makeHint(problem, 'length', 1, rng) : weakest(problem, kind, rng));
  return hint ? { kind, strength, hint } : null;
}

/** The kind's hint at the first strength that has one. */
function weakest(problem: Problem, kind: Hint['kind'], rng: Rng): Hint | null {
  for (const s of STRENGTHS) {
    const hint = makeHint(problem, kind, s, rng);
    if (hint) return hint;
  }
  return null;
}
