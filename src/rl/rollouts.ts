import { decode, promptText, renderHint, type Problem, type TaskFamily } from '../tasks/index.ts';
import type { TrainGroup } from './train-group.ts';

/** One group of the latest step as the rollout inspector shows it. */
export interface RolloutGroup {
  group: number;
  /** The prompt as the policy read it (hint slot included), and any forced scaffold. */
  prompt: string;
  hint: string | null;
  scaffold: string | null;
  /** A problem replayed from an earlier level, not one of the level being trained. */
  replayed: boolean;
  attempts: {
    /** The sampled tokens as text, one entry per token (the end token as "."). */
    tokens: string[];
    /** Probability of each sampled token under the policy that drew it. */
    probs: number[];
    answer: string;
    reward: number;
    advantage: number;
    /** Sampled with help; false for an answer without any, e.g. a failure a helped group kept. */
    helped: boolean;
    /** Written by the intervention (off-policy guidance), not sampled: no probabilities. */
    written: boolean;
    /**
     * Sampled with help (a critique, a hint, a scaffold) and learned whole without it, shaped;
     * probabilities as drawn with the help, NaN for forced tokens.
     */
    shaped: boolean;
    /**
     * Where the family reads working (TaskFamily.brokenStep): the failed answer's first broken
     * step, from `at` to `end` in `answer`; absent for a right answer or another family.
     */
    broken?: { at: number; end: number };
  }[];
}

/** The step's groups at `level` with their advantages (G per group, in order), as plain data. */
export function describeRollouts(
  family: TaskFamily,
  groups: readonly TrainGroup[],
  advantages: Float32Array,
  G: number,
  level: number,
): RolloutGroup[] {
  return groups.map((g, i) => ({
    group: i,
    prompt: promptText(g.problem, g.cue.hint),
    hint: g.cue.hint ? renderHint(g.cue.hint) : null,
    scaffold: g.cue.scaffold ?? null,
    replayed: g.problem.level !== level,
    attempts: g.attempts.map((a, j) => ({
      tokens: Array.from(a.tokens, (t) => decode([t])),
      probs: a.offPolicy === 'written' ? [] : Array.from(a.logprobs, (lp) => Math.exp(lp)),
      answer: a.answer,
      reward: a.verdict.reward,
      advantage: advantages[i * G + j],
      helped: a.cue.hint !== undefined || a.cue.scaffold !== undefined,
      written: a.offPolicy === 'written',
      shaped: a.offPolicy === 'helped',
      ...brokenOf(family, g.problem, a.answer, a.verdict.reward),
    })),
  }));
}

function brokenOf(family: TaskFamily, problem: Problem, answer: string, reward: number) {
  if (reward >= 1) return {};
  const broken = family.brokenStep?.(problem, answer);
  return broken ? { broken } : {};
}
