import type { Feedback, Hint, Problem } from '../tasks/index.ts';

/** One scored answer of a group. */
export interface ScoredAttempt {
  /** The whole answer text (a scaffold included). */
  answer: string;
  ended: boolean;
  reward: number;
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
  /** 0 for the groups as first sampled; r for the r-th round of re-attempts. */
  round: number;
  groups: ScoredGroup[];
}

/** What the trainer tells an intervention about the run. */
export interface TrainContext {
  step: number;
  level: number;
  groupSize: number;
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
 * A fresh on-policy attempt for a failed group: a hint in the prompt's hint slot (channel 1)
 * and/or a scaffold forced as the first answer tokens (channel 2), given loss only with
 * scaffoldCredit.
 */
export interface Reprompt {
  group: number;
  hint?: Hint;
  scaffold?: string;
  /** 1 (minimal) … 3 (detailed); derived from the hint or scaffold when absent. */
  strength?: number;
  diagnosis?: Diagnosis;
  /** One plain-English line for the log. */
  note: string;
  /** Who wrote the hint (e.g. 'rules', 'llm'). */
  author?: string;
  /**
   * Train the re-attempt's sampled tokens under the prompt WITHOUT the hint, each token weighted
   * by min(isClip, π(token | no hint) / π(token | hint)): what the hinted attempt got right is
   * learned in the unhinted context, where it has to transfer.
   */
  unhintedLoss?: boolean;
  /**
   * Off-policy guidance instead of a re-attempt: `count` (1 … G − 1) of the group's answers
   * become `answer`, written by the intervention rather than sampled, scored by the verifier like
   * any answer, beside the group's first G − count unhelped answers; the advantages are those of
   * the mixed group. Its tokens take the shaped loss f(p) = p/(p + γ) under the current policy,
   * unclipped. Not combined with a hint or a scaffold. `plain`: its tokens take the plain
   * policy-gradient weight instead, as if the policy had drawn them — for an answer the policy
   * once wrote and now finds unlikely, where f(p) ≈ p/γ would all but silence it.
   */
  offPolicy?: { answer: string; count: number; plain?: boolean };
  /**
   * Critique-guided refinement (Critique-GRPO): with a hint that shows the policy a failed answer
   * and what is wrong with it, the policy writes G refinements on-policy; `count` (1 … G − 1) of
   * them, passing ones first, take the place of the group's last answers, and the failed first
   * answers stay beside them. The refinements are learned in the unhinted prompt with the shaped
   * loss of off-policy answers (their context differs from the one they were sampled in), whole:
   * a scaffold a refinement went on from is part of it.
   */
  refine?: { count: number };
  /**
   * Every re-attempt is learned in the unhinted prompt as an off-policy answer: `whole`, its
   * scaffold included, with the shaped loss — the help's answers taught as LUFFY teaches its
   * written ones; `sampled`, only the tokens the policy drew shaped (instead of unhintedLoss's
   * importance weights), a credited scaffold taking the plain weight as it would without.
   */
  shapedLoss?: 'whole' | 'sampled';
  /**
   * A passing re-attempt's scaffold takes loss too, with the answer's advantage: the whole right
   * answer is learned, its forced start included (failing ones never push the scaffold down).
   */
  scaffoldCredit?: boolean;
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
  /** Called after plan() failed or missed its deadline, so the intervention can recover. */
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
