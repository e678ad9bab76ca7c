// Scored groups and a run context for the interventions' unit tests.
import type { ScoredBatch, ScoredGroup, TrainContext } from '../../rl/intervention.ts';
import {
  arithmeticProblem,
  createListlang,
  createRng,
  verifyAnswer,
  type Problem,
} from '../../tasks/index.ts';

export function group(problem: Problem, answers: string[], index = 0): ScoredGroup {
  return {
    group: index,
    problem,
    attempts: answers.map((answer) => {
      const v = verifyAnswer(problem, answer);
      return {
        answer,
        ended: true,
        reward: v.reward,
        feedback: v.feedback,
        sampledTokens: answer.length + 1,
      };
    }),
  };
}

export function ctx(patch: Partial<TrainContext> = {}): TrainContext {
  return {
    step: 7,
    level: 3,
    groupSize: 8,
    round: 1,
    maxRounds: 3,
    evalAccuracy: null,
    stepsAtLevel: 7,
    ...patch,
  };
}

// 472 + 389 = 861, written units first: "168". Column 0: 2+9 = 11 (carry); column 1: 7+8+1 = 16.
export const sum = arithmeticProblem('+', '472', '389');
// 4 + 3 = 7 then a carry-free 5 + 6 = 11: 354+263 = 617 → "716".
export const noCarry = arithmeticProblem('+', '354', '263');

/** A one-op listlang problem, as the family draws it for `seed`. */
export function oneOpProblem(seed: number) {
  return createListlang().sample(1, createRng(seed));
}

/** A listlang problem whose one reference program is "rs". */
export function listProblem(): Problem {
  const family = createListlang();
  const rng = createRng(3);
  for (;;) {
    const p = family.sample(2, rng);
    if (p.family === 'listlang' && p.data.references.length === 1) return p;
  }
}

/** A round of `groups` (by default the first, at step 0 and level 3). */
export function batchOf(
  groups: ScoredGroup[],
  at: Partial<Omit<ScoredBatch, 'groups'>> = {},
): ScoredBatch {
  return { step: 0, level: 3, round: 0, ...at, groups };
}

/**
 * Twelve steps of eight all-failed groups of list programs at level 2, drawn from `seed`: where
 * most hints are alike, so one method's hint often coincides with another's.
 */
export function listProgramSteps(seed: number): { batch: ScoredBatch; ctx: TrainContext }[] {
  const family = createListlang();
  const rng = createRng(seed);
  return Array.from({ length: 12 }, (_, step) => {
    const groups = Array.from({ length: 8 }, (_, i) =>
      group(family.sample(2, rng), Array(8).fill('r'), i),
    );
    return { batch: batchOf(groups, { step, level: 2 }), ctx: ctx({ step, level: 2 }) };
  });
}
