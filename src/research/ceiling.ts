import type { Transformer } from '../model/transformer.ts';
import { fixedEvalSet } from '../rl/eval-set.ts';
import { greedyAccuracy } from '../rl/evaluate.ts';
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
  /** Problems in each fixed eval set (the experiments' evalSize, so the sets are theirs). */
  evalSize: number;
}

/** Greedy unhinted accuracy at both levels after `step` supervised updates. */
export interface CeilingPoint {
  step: number;
  hard: number;
  easy: number;
}

/**
 * The supervised ceiling of a collapse scenario: the policy fine-tuned on reference answers at the
 * hard level (no hints), measured on the experiments' fixed eval sets — how far it gets when simply
 * shown the answers, which bounds what any help can hope for from a reward per answer.
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
  const measure = async (step: number): Promise<CeilingPoint> => ({
    step,
    hard: (await greedyAccuracy(model, family, evalHard)).accuracy,
    easy: (await greedyAccuracy(model, family, evalEasy)).accuracy,
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
      if (p.step === 0) return; // measured above, before any update
      const point = await measure(p.step);
      points.push(point);
      onPoint(point, p.loss);
    },
    opts.evalEvery,
  );
  return points;
}
