import { encodePrompt } from '../tasks/index.ts';
import type { Attempt } from './sampler.ts';
import type { Cue } from './reprompt/cue.ts';
import { concatTokens } from './sequences.ts';
import type { TrainGroup } from './train-group.ts';

/**
 * How one answer of a step is learned: the sequence it is scored as (the prompt it is learned in,
 * then the answer) and how each of its tokens is weighted. Positions index `tokens`; the token at
 * position t is predicted from t − 1.
 */
export interface LearnedAnswer {
  tokens: Uint32Array;
  /** The first token that takes loss: tokens before it (the prompt, an uncredited scaffold) take none. */
  lossStart: number;
  /**
   * Tokens from here on take the shaped weight f(p) = p/(p + γ) of the current policy, unclipped;
   * null: none. Tokens from lossStart up to it take the policy-gradient weight (ratio, clipping).
   */
  shapedStart: number | null;
  /**
   * Log-probabilities the answer's tokens were sampled with under another prompt, in order from
   * lossStart: each token's weight is multiplied by min(isClip, π(token) / π_behaviour(token)).
   * Null: the tokens were sampled in this prompt (or written), no importance weight.
   */
  behaviour: Float32Array | null;
}

/**
 * How answer `a` of group `g` is learned, from the help the group got (its reprompt) and how the
 * answer came about: sampled as first drawn (or kept beside a retry), sampled with help, or
 * written by the intervention.
 */
export function learnedAnswer(g: TrainGroup, a: Attempt): LearnedAnswer {
  const help = g.reprompt?.help;
  const credited = help?.kind === 'retry' && help.creditScaffold === true && a.verdict.reward > 0;
  if (a.offPolicy !== undefined) {
    // An answer of the bare prompt: written by the intervention, or sampled with help and learned
    // whole without it (its scaffold now part of the answer's tokens).
    const prompt = encodePrompt(g.problem, {});
    const plain = help?.kind === 'demonstration' && help.weight === 'plain';
    // A retry learned on its drawn tokens only: the forced start keeps the plain weight, where it
    // is credited, and takes no loss where not.
    const forced =
      help?.kind === 'retry' && help.learn === 'unhinted-shaped-drawn' && a.offPolicy === 'helped'
        ? (a.cue.scaffold?.length ?? 0)
        : 0;
    return {
      tokens: concatTokens(prompt.tokens, a.tokens),
      lossStart: credited ? prompt.answerStart : prompt.sampleStart + forced,
      shapedStart: plain ? null : prompt.sampleStart + forced,
      behaviour: null,
    };
  }
  // Sampled in the prompt it carried; a retry's hint may be taken out of the prompt it is learned
  // in (a kept unhelped answer never had one).
  const reweighted =
    help?.kind === 'retry' && help.learn === 'unhinted-reweighted' && a.cue.hint !== undefined;
  const context: Cue = reweighted ? { scaffold: a.cue.scaffold } : a.cue;
  const prompt = encodePrompt(g.problem, context);
  return {
    tokens: concatTokens(prompt.tokens, a.tokens),
    lossStart: credited ? prompt.answerStart : prompt.sampleStart,
    shapedStart: null,
    behaviour: reweighted ? a.logprobs : null,
  };
}
