// Context distillation at the diagnosed frontier (docs/protocol.md): a method's hinted retries also
// teach the unhinted policy what the hinted one would write there, whatever the answers score. The
// wrapper adds the retry's `distill` field; the trainer learns it (src/rl/intervention.ts, Retry).
import { renderHint, type Hint } from '../tasks/index.ts';
import type { Intervention, Reprompt, ScoredBatch, TrainContext } from '../rl/intervention.ts';

/** λ per token, fixed by the protocol before the runs (no sweep). */
export const CONTEXT_DISTILL_WEIGHT = 0.1;

/** Hints of earlier plans a placebo may be drawn from, newest first. */
export const PLACEBO_MEMORY = 16;

/**
 * `inner`'s plans with context distillation on every retry that carries a hint: from the retry's
 * own hint and scaffold, or (`placebo`) from the hint of another problem, drawn without the
 * retry's scaffold — another hinted group of the same plan, else one of the last PLACEBO_MEMORY of
 * earlier plans — and drawn again while it renders as the retry's own hint; a retry for which no
 * other problem's hint differs gets none (stats: `placebo_redraws`, `placebo_none`).
 */
export class ContextDistillation implements Intervention {
  /** Hinted retries of earlier plans, newest first, for a placebo when a plan has too few. */
  private memory: { problem: string; hint: Hint }[] = [];
  private counts = { redraws: 0, none: 0 };

  constructor(
    readonly name: string,
    private readonly inner: Intervention,
    private readonly placebo: boolean,
    private readonly weight = CONTEXT_DISTILL_WEIGHT,
  ) {}

  async plan(batch: ScoredBatch, ctx: TrainContext): Promise<Reprompt[]> {
    const planned = await this.inner.plan(batch, ctx);
    const problemOf = (r: Reprompt) =>
      batch.groups.find((g) => g.group === r.group)?.problem.text ?? '';
    const hinted = planned.filter((r) => r.help.kind === 'retry' && r.help.hint !== undefined);
    const hints = hinted.map((r) => ({ problem: problemOf(r), hint: hintOf(r) }));
    const out = planned.map((r): Reprompt => {
      const i = hinted.indexOf(r);
      if (i < 0 || r.help.kind !== 'retry') return r;
      const { weight } = this;
      if (!this.placebo) {
        const own = r.help.scaffold === undefined ? {} : { scaffold: r.help.scaffold };
        return { ...r, help: { ...r.help, distill: { hint: hints[i].hint, ...own, weight } } };
      }
      const other = this.otherThan(hints[i], hints, i);
      return other ? { ...r, help: { ...r.help, distill: { hint: other, weight } } } : r;
    });
    this.memory = [...[...hints].reverse(), ...this.memory].slice(0, PLACEBO_MEMORY);
    return out;
  }

  /**
   * Another problem's hint that renders unlike `own`'s: the next hinted groups' of this plan, then
   * the remembered ones, each that renders as `own`'s counted as a redraw; null where none does.
   */
  private otherThan(
    own: { problem: string; hint: Hint },
    hints: readonly { problem: string; hint: Hint }[],
    i: number,
  ): Hint | null {
    const ownText = renderHint(own.hint);
    const candidates = [
      ...Array.from({ length: hints.length - 1 }, (_, k) => hints[(i + k + 1) % hints.length]),
      ...this.memory,
    ].filter((c) => c.problem !== own.problem);
    for (const c of candidates) {
      if (renderHint(c.hint) !== ownText) return c.hint;
      this.counts.redraws++;
    }
    this.counts.none++;
    return null;
  }

  async observe(retry: ScoredBatch, ctx: TrainContext): Promise<void> {
    await this.inner.observe?.(retry, ctx);
  }

  async recover(reason: string): Promise<void> {
    await this.inner.recover?.(reason);
  }

  async stats(): Promise<Record<string, number>> {
    const inner = (await this.inner.stats?.()) ?? {};
    if (!this.placebo) return inner;
    return { ...inner, placebo_redraws: this.counts.redraws, placebo_none: this.counts.none };
  }

  /** The inner method's state and the remembered hints, so a resumed run draws the same placebos. */
  async saveState(): Promise<unknown> {
    return {
      inner: (await this.inner.saveState?.()) ?? null,
      memory: this.memory,
      counts: this.counts,
    };
  }

  async restoreState(state: unknown): Promise<void> {
    const { inner, memory, counts } = (state ?? {}) as {
      inner?: unknown;
      memory?: ContextDistillation['memory'];
      counts?: ContextDistillation['counts'];
    };
    this.memory = memory ?? [];
    this.counts = counts ?? { redraws: 0, none: 0 };
    if (inner !== null && inner !== undefined) await this.inner.restoreState?.(inner);
  }
}

function hintOf(r: Reprompt): Hint {
  if (r.help.kind !== 'retry' || r.help.hint === undefined) throw new Error('not a hinted retry');
  return r.help.hint;
}
