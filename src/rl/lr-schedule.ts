import type { GrpoConfig } from './config.ts';

/** The learning rates' floor after a cosine fall, as a share of the peak. */
const COSINE_FLOOR = 0.1;

/** A cosine fall from 1 at t = 0 to `floor` at t ≥ 1. */
function cosineFall(t: number, floor: number): number {
  const u = Math.min(1, Math.max(0, t));
  return floor + (1 - floor) * 0.5 * (1 + Math.cos(Math.PI * u));
}

/** Linear warm-up to `peak`, then cosine decay to `peak·floor` at `total` steps. */
export function warmupCosine(
  step: number,
  total: number,
  peak: number,
  warmup: number,
  floor = COSINE_FLOOR,
): number {
  if (step < warmup) return (peak * (step + 1)) / warmup;
  return peak * cosineFall((step - warmup) / Math.max(1, total - warmup), floor);
}

/**
 * The GRPO learning rate at a step: linear warm-up to `lr`, then `lr` — and, with `lrDecay`, a
 * cosine fall from it to a tenth between `from` and `to`, a tenth after.
 */
export function grpoLearningRate(
  config: Pick<GrpoConfig, 'lr' | 'lrWarmupSteps' | 'lrDecay'>,
  step: number,
): number {
  const warm = Math.min(1, (step + 1) / Math.max(1, config.lrWarmupSteps));
  const d = config.lrDecay;
  const fall = d ? cosineFall((step - d.from) / (d.to - d.from), COSINE_FLOOR) : 1;
  return config.lr * warm * fall;
}

/** Throws unless an anneal runs forward between whole steps (the rate divides by its length). */
export function checkLrDecay(decay: GrpoConfig['lrDecay']): void {
  if (!decay) return;
  const { from, to } = decay;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to <= from)
    throw new Error(
      `lrDecay must fall between whole steps, from ≥ 0 to a later one, got ${JSON.stringify(decay)}`,
    );
}
