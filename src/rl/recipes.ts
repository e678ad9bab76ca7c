import type { FamilyId } from '../tasks/index.ts';
import type { WarmupSpec } from './warmup.ts';

/**
 * How each family's shipped base policy is warmed up (`npm run pretrain`). The mix decides the
 * collapse scenario (DESIGN.md §10): the easy level is learned unhinted; the hard level is seen
 * only with hints (so the base is near 0% there unhinted, yet can use help there).
 */
export const WARMUP_RECIPES: Record<FamilyId, Omit<WarmupSpec, 'seed'>> = {
  arithmetic: {
    steps: 4000,
    batch: 64,
    lr: 2e-3,
    warmupSteps: 200,
    mix: [
      { level: 1, weight: 0.15, hintRate: 0.3 },
      { level: 2, weight: 0.3, hintRate: 0.3 },
      { level: 3, weight: 0.4, hintRate: 0.3 },
      { level: 4, weight: 0.15, hintRate: 1 },
    ],
  },
  listlang: {
    steps: 4000,
    batch: 64,
    lr: 2e-3,
    warmupSteps: 200,
    mix: [
      { level: 1, weight: 0.35, hintRate: 0.3 },
      { level: 2, weight: 0.45, hintRate: 0.3 },
      { level: 3, weight: 0.2, hintRate: 1 },
    ],
  },
};
