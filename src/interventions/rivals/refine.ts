import type { Intervention, Reprompt, ScoredBatch, TrainContext } from '../../rl/intervention.ts';
import { critiqueOf, renderHint, type Problem } from '../../tasks/index.ts';
import { DEFAULT_INSTRUCTOR } from '../mentor/instructor.ts';

/** Refinements that join a helped group: one, as the off-policy rival writes one answer. */
export const REFINEMENTS = 1;

/**
 * Critique-guided refinement (Critique-GRPO-style): every all-fail group's most common wrong
 * answer is shown back to the policy with the verifier's critique — where it first goes wrong —
 * and the policy writes G refinements; one (a passing one if any) joins the failed answers,
 * learned in the unhinted prompt with the off-policy shaping. Which groups get help is the other
 * baselines' rule (all-fail groups, first round); the critique states no more of the answer than
 * the mentor's instructor may (its maxReveal).
 */
export class CritiqueRefinement implements Intervention {
  readonly name: string;

  /**
   * `fromMark`: a variant in which each refinement goes on from the critique's mark, what it
   * says is right forced as a scaffold (the whole refinement is still what is learned).
   * `asPublished` (the `refine-full` method): as Critique-GRPO, each failed answer is critiqued
   * and refined once, and the refinements (passing ones first) take the place of as many of the
   * group's answers as there are critiques, up to G − 1.
   */
  constructor(
    private readonly maxReveal = DEFAULT_INSTRUCTOR.maxReveal,
    private readonly fromMark = false,
    private readonly asPublished = false,
    name?: string,
  ) {
    this.name = name ?? (asPublished ? 'refine-full' : 'refine');
  }

  async plan(batch: ScoredBatch, ctx: TrainContext): Promise<Reprompt[]> {
    if (ctx.round > 1) return [];
    const count = Math.min(REFINEMENTS, ctx.groupSize - 1);
    if (count < 1) return [];
    const out: Reprompt[] = [];
    for (const g of batch.groups) {
      if (!g.attempts.every((a) => a.reward === 0)) continue;
      if (this.asPublished) {
        const each = g.attempts
          .map((a) => critiqueOf(g.problem, a.answer, this.maxReveal))
          .filter((h) => h !== null);
        if (each.length === 0) continue;
        const n = Math.min(each.length, ctx.groupSize - 1);
        out.push({
          group: g.group,
          help: { kind: 'refinement', critique: each[0], perAnswer: each, count: n },
          note: `Critiqued each of ${each.length} failed answers (${renderHint(each[0])}, …) and refined each once; ${n} of the refinements join the group (shaped loss).`,
          author: this.name,
        });
        continue;
      }
      const hint = this.critique(
        g.problem,
        g.attempts.map((a) => a.answer),
      );
      if (!hint) continue;
      const scaffold = hint.wrongAt ? hint.attempt.slice(0, hint.wrongAt) : '';
      out.push({
        group: g.group,
        help: {
          kind: 'refinement',
          critique: hint,
          ...(this.fromMark && scaffold ? { scaffold } : {}),
          count,
        },
        note: `Showed the failed answer back with a critique (${renderHint(hint)}); ${count} of ${ctx.groupSize} refinements joins the failed answers (shaped loss).`,
        author: this.name,
      });
    }
    return out;
  }

  /** A critique of the answers' most common one (the policy's firmest mistake) that can be made. */
  private critique(problem: Problem, answers: readonly string[]): ReturnType<typeof critiqueOf> {
    const counts = new Map<string, number>();
    for (const a of answers) counts.set(a, (counts.get(a) ?? 0) + 1);
    // Most common first; ties in the order the answers came.
    const byCount = [...counts.keys()].sort((x, y) => (counts.get(y) ?? 0) - (counts.get(x) ?? 0));
    for (const answer of byCount) {
      const hint = critiqueOf(problem, answer, this.maxReveal);
      if (hint) return hint;
    }
    return null;
  }
}
