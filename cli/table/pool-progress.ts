import { etaText } from '../../src/platform/eta.ts';

/**
 * Seconds until the pool's runs are done: the mean wall time of those finished × the runs left ÷
 * the processes that will run them (no more than the runs left, as one run cannot be split); null
 * before any has finished.
 */
export function poolEtaS(wallS: readonly number[], total: number, width: number): number | null {
  if (wallS.length === 0) return null;
  const left = total - wallS.length;
  if (left === 0) return 0;
  const mean = wallS.reduce((a, b) => a + b, 0) / wallS.length;
  return (mean * left) / Math.min(width, left);
}

/** The pool's progress line, from the wall times in seconds of the runs finished so far. */
export function poolProgressLine(wallS: readonly number[], total: number, width: number): string {
  const done = wallS.length;
  const running = Math.min(width, total - done);
  return `[table] ${done}/${total} runs done, ${running} running, ${etaText(poolEtaS(wallS, total, width))}`;
}
