/** Linear warm-up to `peak`, then cosine decay to `peak·floor` at `total` steps. */
export function warmupCosine(
  step: number,
  total: number,
  peak: number,
  warmup: number,
  floor = 0.1,
): number {
  if (step < warmup) return (peak * (step + 1)) / warmup;
  const t = Math.min(1, (step - warmup) / Math.max(1, total - warmup));
  return peak * (floor + (1 - floor) * 0.5 * (1 + Math.cos(Math.PI * t)));
}
