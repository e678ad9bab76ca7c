// The reference ledger's unit: how many characters of a problem's reference answer a help puts in
// front of the policy (docs/protocol.md, "The reference ledger").
import { commonPrefix } from './common-prefix.ts';
import { statedAnswer } from './stated-answer.ts';
import type { Hint, Problem } from './types.ts';

/** What a help shows the policy of one problem: hints in the hint slot, forced answer starts. */
export interface ShownHelp {
  hints: readonly Hint[];
  scaffolds: readonly string[];
}

/**
 * The reference characters a help states, each counted once: the longest start of the reference
 * that a scaffold, a prefix hint or a critique's right part spells (only where it agrees with the
 * reference: a scaffold of the policy's own working, or a placebo's, states none of this answer),
 * plus the ops a `uses` hint names beyond that start (a multiset, so an op named twice counts
 * twice only if the answer has it twice). A length or carry pattern constrains the answer without
 * spelling it: none. Where the family writes working before its answer, only the answer's part
 * of a text counts (statedAnswer): working states none of the reference.
 */
export function referenceCharsShown(problem: Problem, shown: ShownHelp): number {
  const ref = problem.answer;
  const spelled = (text: string) => commonPrefix(statedAnswer(problem, text), ref);
  let start = 0;
  for (const s of shown.scaffolds) start = Math.max(start, spelled(s));
  for (const h of shown.hints) {
    if (h.kind === 'prefix') start = Math.max(start, spelled(h.text));
    if (h.kind === 'critique' && h.wrongAt !== null)
      start = Math.max(start, spelled(h.attempt.slice(0, h.wrongAt)));
  }
  const rest = [...ref.slice(start)];
  let named = 0;
  for (const h of shown.hints) {
    if (h.kind !== 'uses') continue;
    for (const op of h.ops) {
      const i = rest.indexOf(op);
      if (i < 0) continue;
      rest.splice(i, 1);
      named++;
    }
  }
  return start + named;
}
