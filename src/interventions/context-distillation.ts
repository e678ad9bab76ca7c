// Context distillation at the diagnosed frontier (docs/protocol.md): a method's hinted retries also
// teach the unhinted policy what the hinted one would write there, whatever the answers score. The
// wrapper adds the retry's `distill` field; the trainer learns it (src/rl/intervention.ts, Retry).
import type { Hint } from '../tasks/index.ts';
import type { Intervention, Reprompt, ScoredBatch, TrainContext } from '../rl/intervention.ts';

/** λ per token, fixed by the protocol before the runs (no sweep). */
export const CONTEXT_DISTILL_WEIGHT = 0.1;

/**
 * `inner`'s plans with context distillation on every retry that carries a hint: from the retry's
 * own hint, or (`placebo`) from the hint of another problem — another hinted group of the same
 * plan, or the last one of an earlier plan; a retry with no other problem's hint to take yet gets
 * none.
 */
export class ContextDistillation implements Intervention {
  /** The last hinted retry's problem and hint, for a placebo when a plan has one hinted group. */
  private last: { problem: string; hint: Hint } | null = null;

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
    const out = planned.map((r) => {
      const i = hinted.indexOf(r);
      if (i < 0 || r.help.kind !== 'retry') return r;
      const own = hints[i];
      const source = this.placebo ? this.otherThan(own.problem, hints, i) : own.hint;
      return source
        ? { ...r, help: { ...r.help, distill: { hint: source, weight: this.weight } } }
        : r;
    });
    if (hints.length > 0) this.last = hints[hints.length - 1];
    return out;
  }

  /** Another problem's hint: the next hinted group's of this plan, else the one remembered. */
  private otherThan(
    problem: string,
    hints: readonly { problem: string; hint: Hint }[],
    i: number,
  ): Hint | null {
    for (let k = 1; k < hints.length; k++) {
      const other = hints[(i + k) % hints.length];
      if (other.problem !== problem) return other.hint;
    }
    return this.last && this.last.problem !== problem ? this.last.hint : null;
  }

  async observe(retry: ScoredBatch, ctx: TrainContext): Promise<void> {
    await this.inner.observe?.(retry, ctx);
  }

  async recover(reason: string): Promise<void> {
    await this.inner.recover?.(reason);
  }

  async stats(): Promise<Record<string, number>> {
    return (await this.inner.stats?.()) ?? {};
  }

  /** The inner method's state and the remembered hint, so a resumed run draws the same placebos. */
  async saveState(): Promise<unknown> {
    return { inner: (await this.inner.saveState?.()) ?? null, last: this.last };
  }

  async restoreState(state: unknown): Promise<void> {
    const { inner, last } = (state ?? {}) as {
      inner?: unknown;
      last?: ContextDistillation['last'];
    };
    this.last = last ?? null;
    if (inner !== null && inner !== undefined) await this.inner.restoreState?.(inner);
  }
}

function hintOf(r: Reprompt): Hint {
  if (r.help.kind !== 'retry' || r.help.hint === undefined) throw new Error('not a hinted retry');
  return r.help.hint;
}
