import { TaskError } from './errors.ts';
import type { Levels } from './types.ts';

/** Throws a TaskError naming the family and its range unless `level` is an integer inside it. */
export function checkLevel(family: string, levels: Levels, level: number): void {
  if (!Number.isInteger(level) || level < levels.min || level > levels.max) {
    throw new TaskError(
      `${family}: level ${level} is not an integer in ${levels.min}..${levels.max}`,
    );
  }
}
