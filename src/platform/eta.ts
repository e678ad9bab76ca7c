/** Seconds left of a job at `step` of `steps` after `elapsedS` seconds; null before step 1. */
export function etaSeconds(step: number, steps: number, elapsedS: number): number | null {
  if (step <= 0) return null;
  return (elapsedS / step) * Math.max(0, steps - step);
}

/** An ETA for a progress line: seconds under 90 s, else minutes; a dash where none is known. */
export function etaText(seconds: number | null): string {
  if (seconds === null) return 'ETA –';
  return `ETA ${seconds < 90 ? `${Math.round(seconds)} s` : `${(seconds / 60).toFixed(0)} min`}`;
}
