import { createRng, type Problem, type TaskFamily } from '../tasks/index.ts';

/** Problems of the fixed eval sets come from this seed, the same for every run and method. */
const EVAL_SEED = 0x5eed;

/** The fixed eval set of a level: the same problems for every run, method and tool. */
export function fixedEvalSet(family: TaskFamily, level: number, size: number): Problem[] {
  const rng = createRng(EVAL_SEED).fork(`eval-${family.id}-${level}`);
  return Array.from({ length: size }, () => family.sample(level, rng));
}
