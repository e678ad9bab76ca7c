import type { Feedback, Problem, TaskFamily } from './types.ts';

/**
 * The jump in difficulty where a family's shipped base collapses: an easy level it solves (≥ 90%
 * greedy) and a hard level near 0% unhinted yet within reach of help (docs/results.md).
 */
export interface CollapseScenario {
  readonly easy: number;
  readonly hard: number;
  /** Step of the jump: a short stretch at the easy level first shows GRPO keeps it. */
  readonly jumpAt: number;
  /** Unhelped failures a helped group keeps beside its re-attempts, on this base. */
  readonly keepFailed: number;
  /**
   * Share of prompts replayed from the easy level when its rollouts all fail (the trainer's replay
   * keeper rises to it from the rest share as they do), on this base; at or below the rest
   * share, replay stays fixed.
   */
  readonly replayMax: number;
  /**
   * Weight of distillation to the base on the replayed prompts and `distillPrompts` more (its
   * greedy answers learned supervised beside the GRPO loss), on this base; 0 = off. Needs replay.
   */
  readonly distill: number;
  /**
   * Extra easy prompts a step learned only by that distillation (no rollouts), beside the batch,
   * where `distill` is on.
   */
  readonly distillPrompts: number;
  /**
   * Share of a run's steps, at its end, over which the learning rate falls to a tenth (the
   * command line's runs, whose length is known; the page's have no end); 0 = constant.
   */
  readonly lrDecay: number;
}

/**
 * Everything the rest of the project knows of one task family. Adding a family is a folder under
 * src/tasks/ that exports one of these, and one line in registry.ts.
 */
export interface FamilyEntry<P extends Problem = Problem, F extends Feedback = Feedback> {
  /** For the task picker: what the family asks of the policy. */
  readonly label: string;
  /** A level in words, for the status line ("4-digit addition"). */
  describeLevel(level: number): string;
  /** What one character of an answer is, singular and plural ("digit", "digits"). */
  readonly answerUnit: readonly [string, string];
  /**
   * Where the family writes otherwise than people do: what the page says beside its prompts and
   * answers, and a problem's text or an answer rewritten the usual way.
   */
  readonly reading?: {
    readonly note: string;
    usual(text: string): string;
  };
  /**
   * For the language-model mentor: how the family's answers read and its hint forms, in words. A
   * family without one (a task module) gets a generic text made from `answerUnit` and its hint kinds.
   */
  readonly advisorGrammar?: string;
  /** The family with every option on: what verifies answers and parses hints. */
  readonly family: TaskFamily<P, F>;
  /** The family the page and the experiments train on (a subset of `family`'s problems). */
  readonly training: TaskFamily<P, F>;
  readonly collapse: CollapseScenario;
}
