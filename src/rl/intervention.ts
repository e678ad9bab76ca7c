import type { Feedback, Hint, Problem } from '../tasks/index.ts';

/** One scored answer of a group. */
export interface ScoredAttempt {
  /** The whole answer text (a scaffold included). */
  answer: string;
  ended: boolean;
  reward: number;
  /**
   * The verifier's account of the answer, by `family` and `kind` (docs/interventions.md lists every
   * field):
   * - arithmetic: `correct`; `format` (`reason` `empty`, or `non-digit` with `index` and `char`);
   *   `wrong` (`expectedLength`, `gotLength`, `firstWrong` { `index`, `expected`, `got` },
   *   `correctPrefix`, `wrongDigits`, `missedCarries`; positions in writing order, 0 = units).
   * - listlang: `correct`; `parse-error` (`column`, `message`); `unknown-op` (`column`, `op`);
   *   `runtime-error` (`column`, `op`, `message`, `test`); `fuel-exhausted` (`column`, `fuelUsed`,
   *   `fuelLimit`, `test`); `wrong-output` (`actual`, `passed`, `total`, `test`).
   * - a task module: `right`, `wrong`, `partial` (a reward between 0 and 1) or `fault` (its verify
   *   failed; scored 0), and no other field; `family` is the module's id (`custom` on the page).
   */
  feedback: Feedback;
  /** Number of tokens the policy sampled itself. */
  sampledTokens: number;
}

/** A group of G answers to one prompt, and the help that prompt carried (none when first sampled). */
export interface ScoredGroup {
  /** Index of the group in the step's batch. */
  group: number;
  problem: Problem;
  hint?: Hint;
  scaffold?: string;
  attempts: ScoredAttempt[];
}

export interface ScoredBatch {
  step: number;
  level: number;
  /**
   * Whose answers these are: 0 for the groups as first sampled, r for the r-th round of
   * re-attempts. Counted from 0, unlike TrainContext.round: plan() sees `batch.round` one less
   * than `ctx.round` (the first sampled answers, 0, for the first re-attempts, 1); observe() sees
   * them equal (the re-attempts of round r, in round r).
   */
  round: number;
  groups: ScoredGroup[];
}

/** What the trainer tells an intervention about the run. */
export interface TrainContext {
  step: number;
  level: number;
  groupSize: number;
  /**
   * The round of re-attempts the call is for, counted from 1 (1 = the first re-attempts), up to
   * maxRounds. Not ScoredBatch.round, which counts the answers shown from 0: in plan(),
   * `ctx.round === batch.round + 1`; in observe(), they are equal.
   */
  round: number;
  maxRounds: number;
  /** Latest greedy unhinted accuracy at the current level, if measured since the last change. */
  evalAccuracy: number | null;
  /** Steps since the difficulty last changed. */
  stepsAtLevel: number;
}

/** Why a group failed, as the intervention saw it; carried to logs, opaque to the trainer. */
export interface Diagnosis {
  cause: string;
  /** Where the attempts break (a digit or op position), when it applies. */
  frontier?: number;
  evidence: string;
  confidence: number;
}

/**
 * How the answers of a retry are learned.
 * - `as-sampled`: in the prompt they were sampled in, hint and scaffold there, like any GRPO answer
 *   (the scaffold takes no loss unless the retry credits it).
 * - `unhinted-reweighted`: in the prompt without the hint (a scaffold stays forced), each token's
 *   weight times min(isClip, π(token | no hint) / π(token | hint)): what the hinted attempt got
 *   right is learned where it has to transfer. The same as `as-sampled` for a retry with no hint.
 * - `unhinted-shaped`: as answers of the bare prompt (no hint, no scaffold), scaffold included,
 *   every token with the shaped weight f(p) = p/(p + γ) under the current policy, unclipped — as
 *   LUFFY teaches a written answer.
 * - `unhinted-shaped-drawn`: the same, but only the tokens the policy drew are shaped; the
 *   scaffold takes the plain weight where the retry credits it, and no loss otherwise.
 */
export type RetryLearning =
  'as-sampled' | 'unhinted-reweighted' | 'unhinted-shaped' | 'unhinted-shaped-drawn';

/**
 * A fresh on-policy attempt: G − keepFailed new answers sampled with a hint in the prompt's hint
 * slot and/or a scaffold forced as the first answer tokens, beside keepFailed of the group's own
 * failed answers.
 */
export interface Retry {
  kind: 'retry';
  hint?: Hint;
  scaffold?: string;
  learn: RetryLearning;
  /**
   * A passing answer's scaffold takes loss too, with the answer's advantage: the whole right
   * answer is learned, its forced start included (failing ones never push the scaffold down).
   */
  creditScaffold?: boolean;
  /**
   * Context distillation: answers drawn with `hint` in the hint slot (and the distillation's
   * scaffold forced) are also learned in the unhinted prompt, that scaffold forced, by their
   * log-loss on the drawn tokens whatever they score, at `weight` per token averaged over all such
   * tokens of the step — a sampled estimate of the KL from the policy told `hint` to the untold
   * one there. With the retry's own hint and scaffold its answers are those; with any other,
   * G − keepFailed more are drawn.
   */
  distill?: ContextDistill;
}

export interface ContextDistill {
  hint: Hint;
  /** The answer start the distilled answers are drawn and learned under; absent, none. */
  scaffold?: string;
  /** λ per token: above 0, at most MAX_CONTEXT_DISTILL_WEIGHT. */
  weight: number;
}

/** The largest context-distillation weight the trainer takes. */
export const MAX_CONTEXT_DISTILL_WEIGHT = 10;

/**
 * An answer the intervention writes instead of sampling (off-policy guidance): it takes the place
 * of the last `count` (1 … G − 1) of the group's answers, beside its first G − count unhelped ones,
 * and is scored by the verifier like any answer; the advantages are those of the mixed group.
 * `shaped`: its tokens take the shaped weight f(p) = p/(p + γ) under the current policy,
 * unclipped (LUFFY). `plain`: the plain policy-gradient weight, as if the policy had drawn it —
 * for an answer the policy once wrote and now finds unlikely, where f(p) ≈ p/γ would all but
 * silence it.
 */
export interface Demonstration {
  kind: 'demonstration';
  answer: string;
  count: number;
  weight: 'shaped' | 'plain';
}

/**
 * Critique-guided refinement (Critique-GRPO): with a critique in the hint slot (it shows the
 * policy a failed answer and what is wrong with it), and a scaffold if given, the policy writes G
 * refinements on-policy; `count` (1 … G − 1) of them, passing ones first, take the place of the
 * group's last answers, the failed first answers beside them. The refinements are learned as
 * answers of the bare prompt with the shaped weight, whole: a scaffold a refinement went on from
 * is part of it.
 */
export interface Refinement {
  kind: 'refinement';
  critique: Hint;
  scaffold?: string;
  count: number;
  /**
   * A critique of each failed answer (as Critique-GRPO critiques every one): the policy writes one
   * refinement under each instead of G under `critique` (the log's); `count` at most their number.
   */
  perAnswer?: Hint[];
}

/** The help a failed group gets: one of three channels. */
export type Help = Retry | Demonstration | Refinement;

/**
 * What the prompt of a group with this help carries: a retry's hint and scaffold, a refinement's
 * critique and scaffold, nothing for a demonstration (its answer is written, not prompted).
 */
export function promptOf(help: Help): { hint: Hint | undefined; scaffold: string | undefined } {
  switch (help.kind) {
    case 'retry':
      return { hint: help.hint, scaffold: help.scaffold };
    case 'demonstration':
      return { hint: undefined, scaffold: undefined };
    case 'refinement':
      return { hint: help.critique, scaffold: help.scaffold };
  }
}

/** What an intervention asks for one group of a scored batch. */
export interface Reprompt {
  /** The group's index in the step's batch (ScoredGroup.group). */
  group: number;
  help: Help;
  /** 1 (minimal) … 3 (detailed); derived from the help when absent. */
  strength?: number;
  diagnosis?: Diagnosis;
  /** One plain-English line for the log. */
  note: string;
  /** Who wrote the help (e.g. 'rules', 'llm'). */
  author?: string;
  /** A help considered and not sent, for the log: whose it was and why (e.g. the LLM agent's hint). */
  declined?: Declined;
}

/** A help an intervention considered and did not send: who proposed it and why it was not used. */
export interface Declined {
  by: string;
  why: string;
}

/**
 * How GRPO is helped. The trainer calls plan() after scoring each step's groups and, for every
 * reprompt, samples a fresh group with that help; it knows nothing else of hints.
 */
export interface Intervention {
  readonly name: string;
  plan(batch: ScoredBatch, ctx: TrainContext): Promise<Reprompt[]>;
  /** The outcome of the re-attempts (for fading and escalation). */
  observe?(retry: ScoredBatch, ctx: TrainContext): void | Promise<void>;
  /**
   * Called after any call on it (plan, observe, stats, saveState, restoreState) failed or missed
   * its deadline, so the intervention can recover.
   */
  recover?(reason: string): void | Promise<void>;
  /** Named figures of its own (e.g. an LLM agent's validity rate) for the step's metrics. */
  stats?(): Record<string, number> | Promise<Record<string, number>>;
  /** Its state as plain data, for a snapshot of the run; absent when it keeps none. */
  saveState?(): unknown;
  /** Go on from a saveState() of an intervention of the same kind. */
  restoreState?(state: unknown): void | Promise<void>;
}

/** Plain GRPO: never intervenes. */
export const noIntervention: Intervention = {
  name: 'none',
  async plan() {
    return [];
  },
};
