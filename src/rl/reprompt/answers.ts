// How a reprompt's help becomes answers: what it asks to sample, which of the answers join the
// group and as what, and how strong it is. The trainer's rounds (rounds.ts) use these.
import {
  commonPrefix,
  encode,
  hintStrength,
  referenceCharsShown,
  statedAnswerOfWhole,
  renderHint,
  shareStrength,
  type Hint,
  type Problem,
} from '../../tasks/index.ts';
import type { Attempt } from '../sampler.ts';
import type { Cue } from './cue.ts';
import {
  promptOf,
  type ContextDistill,
  type Help,
  type Refinement,
  type Reprompt,
  type Retry,
} from '../intervention.ts';
import { concatTokens } from '../sequences.ts';

/** A batch of `count` answers to sample for one problem under one help. */
export interface SampleRequest {
  problem: Problem;
  cue: Cue;
  count: number;
}

/**
 * A retry whose context distillation is under a prompt other than its own (another hint, or
 * another scaffold): its answers are drawn apart.
 */
export function distillsOtherHint(help: Help): boolean {
  if (help.kind !== 'retry' || !help.distill) return false;
  if (help.distill.scaffold !== help.scaffold) return true;
  return !help.hint || renderHint(help.distill.hint) !== renderHint(help.hint);
}

/** What sampling the context distillation of a retry that distils apart asks. */
export function distillRequest(
  help: Retry & { distill: ContextDistill },
  problem: Problem,
  groupSize: number,
  keepFailed: number,
): SampleRequest {
  const { hint, scaffold } = help.distill;
  return { problem, cue: { hint, scaffold }, count: groupSize - keepFailed };
}

/**
 * The reference ledger (docs/protocol.md): the characters of the problem's reference answer the
 * help puts in front of the policy, counted once for the help — a written answer whole (its text
 * is the reference, or a teacher's), a retry's or refinement's hints and scaffolds (a context
 * distillation's included) as far as they spell the reference.
 */
export function referenceCharsOf(help: Help, problem: Problem): number {
  switch (help.kind) {
    case 'demonstration':
      return statedAnswerOfWhole(problem, help.answer).length;
    case 'retry':
      return referenceCharsShown(problem, {
        hints: [help.hint, help.distill?.hint].filter((h) => h !== undefined),
        scaffolds: [help.scaffold, help.distill?.scaffold].filter((s) => s !== undefined),
      });
    case 'refinement':
      return referenceCharsShown(problem, {
        hints: [help.critique, ...(help.perAnswer ?? [])],
        scaffolds: help.scaffold === undefined ? [] : [help.scaffold],
      });
  }
}

/**
 * Teacher tokens (docs/protocol.md, Amendment 2): the characters of solution text the help puts in
 * front of the policy or teaches it that the policy did not write, counted once for the help — a
 * demonstration's whole text, a prefix hint's text, a scaffold beyond the longest start of it
 * that one of the group's own `answers` wrote. A critique quoting the policy's attempt and hints
 * that name no part of a solution (a length, a number of columns) are none.
 */
export function teacherCharsOf(help: Help, answers: readonly string[]): number {
  const beyondOwn = (scaffold: string | undefined) =>
    scaffold === undefined
      ? 0
      : scaffold.length - Math.max(0, ...answers.map((a) => commonPrefix(scaffold, a)));
  const prefix = (h: Hint | undefined) => (h?.kind === 'prefix' ? h.text.length : 0);
  switch (help.kind) {
    case 'demonstration':
      return help.answer.length;
    case 'retry':
      return (
        prefix(help.hint) +
        prefix(help.distill?.hint) +
        Math.max(beyondOwn(help.scaffold), beyondOwn(help.distill?.scaffold))
      );
    case 'refinement':
      return beyondOwn(help.scaffold);
  }
}

/** A retry whose answers are learned in the bare prompt, as answers written without help. */
export const learnedAsWritten = (help: Help) =>
  help.kind === 'retry' &&
  (help.learn === 'unhinted-shaped' || help.learn === 'unhinted-shaped-drawn');

/**
 * An answer sampled with help, as an off-policy answer of the unhinted prompt: all of it, a
 * scaffold it went on from included.
 */
export function learnedWithoutHelp(a: Attempt): Attempt {
  const forced = encode(a.cue.scaffold ?? '');
  const tokens = concatTokens(forced, a.tokens);
  const logprobs = new Float32Array(tokens.length).fill(NaN);
  logprobs.set(a.logprobs, forced.length);
  return { ...a, tokens, logprobs, offPolicy: 'helped' };
}

/**
 * The refinements that join a group: `count` of them, passing ones first (Critique-GRPO keeps a
 * right refinement where there is one), each learned as an off-policy answer.
 */
export function chosenRefinements(refinements: readonly Attempt[], count: number): Attempt[] {
  const passing = refinements.filter((a) => a.verdict.reward > 0);
  const failing = refinements.filter((a) => a.verdict.reward <= 0);
  return [...passing, ...failing].slice(0, count).map(learnedWithoutHelp);
}

/** The help's strength: the intervention's own figure, else that of its hint or its scaffold. */
export function strengthOf(r: Reprompt, problem: Problem): number {
  if (r.strength !== undefined) return r.strength;
  // A written answer shows all of it.
  if (r.help.kind === 'demonstration')
    return shareStrength(problem.answer.length, problem.answer.length);
  const { hint, scaffold } = promptOf(r.help);
  const hinted = hint ? hintStrength(problem, hint) : 0;
  // A scaffold is as strong as a prefix hint that shows the same characters.
  const forced = scaffold ? shareStrength(scaffold.length, problem.answer.length) : 0;
  return Math.max(hinted, forced);
}

/**
 * What sampling a reprompt's help asks: G − keepFailed retries, G refinements, or one per
 * critique.
 */
export function requestsOf(
  help: Retry | Refinement,
  problem: Problem,
  groupSize: number,
  keepFailed: number,
): SampleRequest[] {
  if (help.kind === 'retry')
    return [{ problem, cue: promptOf(help), count: groupSize - keepFailed }];
  if (help.perAnswer)
    return help.perAnswer.map((critique) => ({
      problem,
      cue: { hint: critique, scaffold: help.scaffold },
      count: 1,
    }));
  return [{ problem, cue: promptOf(help), count: groupSize }];
}

/** How many of a group's answers are its own unhelped ones, kept beside the help's. */
export function keptAnswers(r: Reprompt | null, groupSize: number, keepFailed: number): number {
  if (!r) return 0;
  return r.help.kind === 'retry' ? keepFailed : groupSize - r.help.count;
}
