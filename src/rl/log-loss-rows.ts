// Sequences learned by their log-loss beside the GRPO loss: the base's answers (distillation to
// the starting policy) and the answers drawn under a hint learned in the unhinted prompt (context
// distillation). Each set's weight is spread over its tokens, so it is their mean log-loss.
import { encodePrompt } from '../tasks/index.ts';
import type { Attempt } from './sampler.ts';
import { concatTokens } from './sequences.ts';

/** A whole sequence (prompt and answer), loss from `lossStart`, `weight` per token. */
export interface LogLossRow {
  tokens: Uint32Array;
  lossStart: number;
  weight: number;
}

/** An answer drawn under a hint, to be learned without it at `weight` per token. */
export interface ContextTarget {
  attempt: Attempt;
  weight: number;
}

/** The base's answers in their bare prompts, `weight` in all. */
export function distillationRows(answers: readonly Attempt[], weight: number): LogLossRow[] {
  const total = answers.reduce((n, a) => n + a.tokens.length, 0);
  return answers.map((a) => {
    const prompt = encodePrompt(a.problem, {});
    return {
      tokens: concatTokens(prompt.tokens, a.tokens),
      lossStart: prompt.sampleStart,
      weight: weight / total,
    };
  });
}

/**
 * Answers drawn under a hint, in the prompt without it (their scaffold forced, no loss), on the
 * drawn tokens: each at its weight per token, averaged over all of them.
 */
export function contextDistillationRows(targets: readonly ContextTarget[]): LogLossRow[] {
  const total = targets.reduce((n, t) => n + t.attempt.tokens.length, 0);
  return targets.map(({ attempt: a, weight }) => {
    const prompt = encodePrompt(a.problem, { scaffold: a.cue.scaffold });
    return {
      tokens: concatTokens(prompt.tokens, a.tokens),
      lossStart: prompt.sampleStart,
      weight: weight / total,
    };
  });
}
