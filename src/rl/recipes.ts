import type { FamilyId } from '../tasks/index.ts';
import type { WarmupSpec } from './warmup.ts';

/**
 * How each family's shipped base policy is warmed up (`npm run pretrain`). The mix decides the
 * collapse scenario (DESIGN.md §10): the easy level is learned unhinted; the hard level is seen
 * only with hints (so the base is near 0% there unhinted, yet can use help there).
 */
export const WARMUP_RECIPES: Record<FamilyId, Omit<WarmupSpec, 'seed'>> = {
  arithmetic: {
    steps: 6000,
    batch: 64,
    lr: 3e-3,
    warmupSteps: 200,
    mix: [
      { level: 1, weight: 1, hintRate: 0.3 },
      { level: 2, weight: 1, hintRate: 0.3 },
      { level: 3, weight: 1, hintRate: 0.3 },
      { level: 4, weight: 0.05, hintRate: 0.5 },
    ],
  },
  listlang: {
    // Not longer: at 16,000 steps three ops reach 10.5% unhinted and two ops only 85%, so neither
    // jump collapses cleanly; at 8,000 one op is at 95% and three ops at 1%.
    steps: 8000,
    batch: 64,
    lr: 3e-3,
    warmupSteps: 200,
    mix: [
      { level: 1, weight: 0.3, hintRate: 0.3 },
      { level: 2, weight: 0.6, hintRate: 0.3 },
      { level: 3, weight: 0.1, hintRate: 0.9 },
    ],
  },
};
