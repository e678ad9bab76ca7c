import type { WarmupLevel, WarmupSpec } from '../src/rl/warmup.ts';
import { ARITH_OPS, type TaskId } from '../src/tasks/index.ts';
import { UsageError } from './flags.ts';

/** "level:weight:hintRate[:op],…" → warm-up levels, every field checked. */
export function parseMix(
  text: string,
  family: { id: TaskId; levels: { min: number; max: number } },
): WarmupLevel[] {
  const { levels } = family;
  const mix = text.split(',').map((part) => {
    const fields = part.trim().split(':');
    const [level, weight, hintRate] = fields.slice(0, 3).map(Number);
    const op = fields[3]?.trim();
    if (fields.length < 3 || fields.length > 4 || fields.some((x) => x.trim() === ''))
      throw new UsageError(`--mix: "${part}" is not level:weight:hintRate[:op]`);
    if (!Number.isInteger(level) || level < levels.min || level > levels.max)
      throw new UsageError(`--mix: level ${fields[0]} is not in ${levels.min}–${levels.max}`);
    if (!(weight > 0 && Number.isFinite(weight)))
      throw new UsageError(`--mix: weight ${fields[1]} of level ${level} must be > 0`);
    if (!(hintRate >= 0 && hintRate <= 1))
      throw new UsageError(`--mix: hint rate ${fields[2]} of level ${level} must be in [0, 1]`);
    if (op === undefined) return { level, weight, hintRate };
    if (family.id !== 'arithmetic')
      throw new UsageError(`--mix: an operation (${op}) needs --task arithmetic`);
    const known = ARITH_OPS.find((o) => o === op);
    if (!known)
      throw new UsageError(`--mix: operation "${op}" is not one of ${ARITH_OPS.join(' ')}`);
    return { level, weight, hintRate, op: known };
  });
  const seen = new Set<string>();
  for (const m of mix) {
    const key = `${m.level}${m.op ?? ''}`;
    if (seen.has(key)) throw new UsageError(`--mix: level ${key} is given twice`);
    seen.add(key);
  }
  return mix;
}

/** "1,2" → levels, each an integer inside the family's range, none twice. */
export function parseLevelList(text: string, levels: { min: number; max: number }): number[] {
  const list = text.split(',').map((part) => {
    const level = Number(part.trim());
    if (part.trim() === '' || !Number.isInteger(level) || level < levels.min || level > levels.max)
      throw new UsageError(`"${part}" is not a level in ${levels.min}–${levels.max}`);
    return level;
  });
  if (new Set(list).size !== list.length) throw new UsageError(`"${text}" gives a level twice`);
  return list;
}

type WarmupCritique = NonNullable<WarmupSpec['critique']>;

/**
 * The warm-up's critiques: each flag given overrides its own field of the recipe's, so
 * `--critique-share 0.3` on a recipe with marked critiques keeps their mark. Critiques are always
 * marked within `maxReveal`, the instructor's cap, as refinement marks them.
 */
export function resolveCritique(
  recipe: WarmupCritique | undefined,
  flags: { share?: number; minMark?: number; levels?: readonly number[] },
  maxReveal: number,
): WarmupCritique | undefined {
  const { share, minMark, levels } = flags;
  if (share === undefined && minMark === undefined && levels === undefined) return recipe;
  const shareOf = share ?? recipe?.share;
  if (shareOf === undefined) {
    const picks = minMark !== undefined ? '--critique-min-mark' : '--critique-levels';
    throw new UsageError(
      `${picks} picks among critiques and the recipe has none: give --critique-share too`,
    );
  }
  return {
    ...recipe,
    share: shareOf,
    maxReveal,
    ...(minMark !== undefined ? { minMark } : {}),
    ...(levels !== undefined ? { levels } : {}),
  };
}
