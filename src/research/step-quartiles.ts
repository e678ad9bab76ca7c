/** The spread over runs of one quantity at one step. */
export interface StepQuartiles {
  step: number;
  q1: number;
  median: number;
  q3: number;
  /** How many runs have a value at this step. */
  runs: number;
}

/**
 * The `p`-quantile of ascending `sorted` by linear interpolation between order statistics
 * (Hyndman and Fan's type 7, the default of R and NumPy): the value at rank (n − 1)·p.
 */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('quantile of no values');
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/**
 * Median and quartiles over runs at each step, on the grid of every step any run has (ascending);
 * a step counts the runs that have a value there. Each run is a list of (step, value) points.
 */
export function stepQuartiles(runs: readonly (readonly [number, number][])[]): StepQuartiles[] {
  const byStep = new Map<number, number[]>();
  for (const run of runs)
    for (const [step, v] of run) byStep.set(step, [...(byStep.get(step) ?? []), v]);
  return [...byStep.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([step, vs]) => {
      const sorted = [...vs].sort((a, b) => a - b);
      return {
        step,
        q1: quantile(sorted, 0.25),
        median: quantile(sorted, 0.5),
        q3: quantile(sorted, 0.75),
        runs: sorted.length,
      };
    });
}
