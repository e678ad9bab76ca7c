import type { Transformer } from '../model/transformer.ts';
import { fixedEvalSet } from '../rl/eval-set.ts';
import { greedyAccuracy } from '../rl/sampler.ts';
import { runWarmup } from '../rl/warmup.ts';
import type { CollapseScenario, TaskFamily } from '../tasks/index.ts';

/** Share of a ceiling's examples from the easy level, against forgetting. */
export const DEFAULT_CEILING_EASY_SHARE = 0.2;

export interface CeilingOptions {
  seed: number;
  steps: number;
  batch: number;
  lr: number;
  /** Share of examples from the easy level (against forgetting). */
  easyShare: number;
  evalEvery: number;
  /**
   * Extra evals every this many updates for the first `evalDenseSteps` (0 or absent: none), as an
   * experiment's dense evals after a jump: a table's supervised row is timed as its runs are.
   */
  evalDenseEvery?: number;
  evalDenseSteps?: number;
  /** Problems in each fixed eval set (the experiments' evalSize, so the sets are theirs). */
  evalSize: number;
}

/** Greedy unhinted accuracy at both levels after `step` supervised updates. */
export interface CeilingPoint {
  step: number;
  hard: number;
  easy: number;
  /** Characters of reference answers taught through this step (the reference ledger's count). */
  referenceChars?: number;
  /** Characters of written solutions taught through this step, working and all (teacher tokens). */
  teacherChars?: number;
}

/** Whether a ceiling measures after `updates` updates: every evalEvery, the dense ones, the last. */
export function ceilingEvalDue(opts: CeilingOptions, updates: number): boolean {
  if (updates % opts.evalEvery === 0 || updates === opts.steps) return true;
  const dense = opts.evalDenseEvery ?? 0;
  return dense > 0 && updates <= (opts.evalDenseSteps ?? 0) && updates % dense === 0;
}

/**
 * The supervised ceiling of a collapse scenario: the policy fine-tuned on reference answers at the
 * hard level (no hints), measured on the experiments' fixed eval sets — how far it gets when simply
 * shown the answers, which bounds what any help can hope for from a reward per answer. Points are
 * at 0 updates, then as ceilingEvalDue says; `step` counts updates done.
 */
export async function supervisedCeiling(
  model: Transformer,
  family: TaskFamily,
  { easy, hard }: CollapseScenario,
  opts: CeilingOptions,
  onPoint: (p: CeilingPoint, loss: number | null) => void = () => {},
): Promise<CeilingPoint[]> {
  const evalHard = fixedEvalSet(family, hard, opts.evalSize);
  const evalEasy = fixedEvalSet(family, easy, opts.evalSize);
  let referenceChars = 0;
  let teacherChars = 0;
  const measure = async (step: number): Promise<CeilingPoint> => ({
    step,
    hard: (await greedyAccuracy(model, family, evalHard)).accuracy,
    easy: (await greedyAccuracy(model, family, evalEasy)).accuracy,
    referenceChars,
    teacherChars,
  });
  const points = [await measure(0)];
  onPoint(points[0], null);
  await runWarmup(
    model,
    family,
    {
      seed: opts.seed,
      steps: opts.steps,
      batch: opts.batch,
      lr: opts.lr,
      warmupSteps: 20,
      mix: [
        { level: easy, weight: opts.easyShare, hintRate: 0 },
        { level: hard, weight: 1 - opts.easyShare, hintRate: 0 },
      ],
    },
    async (p) => {
      referenceChars += p.referenceChars;
      teacherChars += p.answerChars;
      const updates = p.step + 1;
      if (!ceilingEvalDue(opts, updates)) return;
      const point = await measure(updates);
      points.push(point);
      onPoint(point, p.loss);
    },
    1,
  );
  return points;
}
