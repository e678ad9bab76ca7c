import {
  isFamilyId,
  type FamilyEntry,
  type FamilyId,
  type Levels,
  type TaskId,
} from '../../tasks/index.ts';
import type { PolicyOptions, WarmRestart, WarmupSpec } from '../warmup.ts';

/** A shipped base: the model's architecture options and its warm-up. */
export interface BaseRecipe extends Omit<WarmupSpec, 'seed'> {
  policy: PolicyOptions;
  /** Cycles run one after another, each from the weights the one before ends with. */
  restarts?: readonly WarmRestart[];
}

/** listlang's mix: one op mostly unhinted, two ops only ever with a hint. */
const LISTLANG_ONE_OP = { level: 1, weight: 0.6, hintRate: 0.15 };
const LISTLANG_TWO_OPS = { level: 2, weight: 0.7, hintRate: 1 };

/**
 * How each family's shipped base policy is warmed up (`npm run pretrain`). The mix decides the
 * collapse scenario: the easy level is learned unhinted; the hard level is near 0%
 * unhinted, yet within reach of help.
 */
export const WARMUP_RECIPES: Partial<Record<FamilyId, BaseRecipe>> = {
  arithmetic: {
    // Digit places without RoPE find a column by its content, so the 4th place can be learned
    // from rare 4-digit multiplications (0.08% of examples) while 4-digit sums stay unseen: the jump from 3 to
    // 4 digits collapses plain GRPO, yet the place is known. With addition at 4 digits in the mix
    // the warm-up learns the level outright or not at all (docs/results/history.md, "How the arithmetic base was chosen").
    policy: { maxPlace: 10, rope: false },
    steps: 6000,
    batch: 64,
    lr: 3e-3,
    warmupSteps: 200,
    mix: [
      { level: 1, weight: 1, hintRate: 0.3 },
      { level: 2, weight: 1, hintRate: 0.3 },
      { level: 3, weight: 1, hintRate: 0.3 },
      { level: 2, weight: 0.3, hintRate: 0.3, op: '*' },
      { level: 3, weight: 0.3, hintRate: 0.3, op: '*' },
      { level: 4, weight: 0.003, hintRate: 0.3, op: '*' },
    ],
  },
  listlang: {
    policy: {},
    // Two-op programs only ever with a hint, most of them told just the length (so the program
    // must be found from the examples), beside one-op programs mostly unhinted: the base writes
    // two ops when a hint says so and one op otherwise, so the jump from one op to two freezes
    // plain GRPO while help reaches it. A 0.5% unhinted two-op share gives 14.5% unhinted, which
    // does not collapse; three ops are beyond this model even supervised (docs/results/history.md, "Base policies").
    steps: 16000,
    batch: 64,
    lr: 3e-3,
    warmupSteps: 200,
    mix: [LISTLANG_ONE_OP, LISTLANG_TWO_OPS],
    lengthHintShare: 0.8,
    // A fifth of the hints, in every cycle, critique a near miss marked after a right first char
    // (the reveal cap is the instructor's, the one refinement marks within): the base reads a
    // critique (84% of its two-op failures put right, greedy) where further cycles from a base
    // that never saw one broke its gate or taught nothing; the gate stays shut (3.2e-7)
    // (docs/results/history.md, "Critiques from the first step of a warm-up").
    critique: { share: 0.2, maxReveal: 0.8, minMark: 1 },
    // A second cycle from the first's weights lifts the two-op skill (76% → 81.5% told the
    // length) and shuts the gate a thousandfold (unhinted chance of a two-op reference answer
    // 3.3e-6 → 2.9e-9, `npm run gate`), where a longer single cycle left the skill flat. The
    // third gives the first op as a hint at both levels, so the policy learns from the examples
    // whether one op is the whole program: what it lacked when it learned two ops and wrote two
    // everywhere. It opens the gate (1.7e-6); the fourth, on the first mix again, shuts it
    // (1.7e-8) and lifts the skill to 85.5%
    // (docs/results/history.md, "How the listlang base was chosen").
    restarts: [
      { steps: 6000, lr: 3e-3, seedOffset: 11 },
      {
        steps: 4000,
        lr: 3e-3,
        seedOffset: 21,
        // The first mix with twice the hinted one-op problems, where the first-op hints go.
        mix: [{ ...LISTLANG_ONE_OP, hintRate: 0.3 }, LISTLANG_TWO_OPS],
        firstStepShare: 0.4,
      },
      { steps: 6000, lr: 3e-3, seedOffset: 30 },
    ],
  },
  worked: {
    // Two-digit multipliers: the working (two partial products and their sum) is learned
    // unhinted up to three-digit multiplicands; four digits only ever under the steps hint ("k4",
    // which states nothing of the product), rarely — the one-digit family's recipe, whose jump
    // from four columns to five froze plain GRPO, on the shape where the working matters (a base
    // that answers outright multiplies no three-digit number by two digits; docs/results.md,
    // "worked").
    policy: {},
    steps: 8000,
    batch: 64,
    lr: 3e-3,
    warmupSteps: 200,
    mix: [
      { level: 1, weight: 0.6, hintRate: 0.3 },
      { level: 2, weight: 0.6, hintRate: 0.3 },
      { level: 3, weight: 0.6, hintRate: 0.3 },
      { level: 4, weight: 0.03, hintRate: 1 },
    ],
  },
};

/**
 * A base for a family that ships none (a task module), by a rule fixed before any run on it: the
 * levels up to its easy one learned mostly unhinted, its hard level only ever under a hint, most
 * of them the length alone, a fifth critiques of a near miss — the listlang base's mix, which made
 * a jump that freezes plain GRPO yet lies within reach of help. Whether it does so on another task
 * is what the gate and the literacy table after the warm-up say.
 */
export function genericRecipe(
  levels: Levels,
  collapse: { easy: number; hard: number },
): BaseRecipe {
  const below = Array.from({ length: collapse.easy - levels.min + 1 }, (_, i) => ({
    level: levels.min + i,
    weight: 0.6,
    hintRate: 0.15,
  }));
  return {
    policy: {},
    steps: 6000,
    batch: 64,
    lr: 3e-3,
    warmupSteps: 200,
    mix: [...below, { level: collapse.hard, weight: 0.7, hintRate: 1 }],
    lengthHintShare: 0.8,
    critique: { share: 0.2, maxReveal: 0.8, minMark: 1 },
  };
}

/** The recipe of a family's base: a shipped family's own, else the generic one. */
export function warmupRecipe(task: TaskId, entry: FamilyEntry): BaseRecipe {
  return (
    (isFamilyId(task) && WARMUP_RECIPES[task]) || genericRecipe(entry.family.levels, entry.collapse)
  );
}
