import type { WarmupLevel } from '../src/rl/warmup.ts';
import { UsageError } from './flags.ts';

/** "level:weight:hintRate,…" → warm-up levels, every field checked. */
export function parseMix(text: string, levels: { min: number; max: number }): WarmupLevel[] {
  const mix = text.split(',').map((part) => {
    const fields = part.trim().split(':');
    const [level, weight, hintRate] = fields.map(Number);
    if (fields.length !== 3 || fields.some((x) => x.trim() === ''))
      throw new UsageError(`--mix: "${part}" is not level:weight:hintRate`);
    if (!Number.isInteger(level) || level < levels.min || level > levels.max)
      throw new UsageError(`--mix: level ${fields[0]} is not in ${levels.min}–${levels.max}`);
    if (!(weight > 0 && Number.isFinite(weight)))
      throw new UsageError(`--mix: weight ${fields[1]} of level ${level} must be > 0`);
    if (!(hintRate >= 0 && hintRate <= 1))
      throw new UsageError(`--mix: hint rate ${fields[2]} of level ${level} must be in [0, 1]`);
    return { level, weight, hintRate };
  });
  const seen = new Set<number>();
  for (const m of mix) {
    if (seen.has(m.level)) throw new UsageError(`--mix: level ${m.level} is given twice`);
    seen.add(m.level);
  }
  return mix;
}
