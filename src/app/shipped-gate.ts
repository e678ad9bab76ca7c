// The gate's reading of a shipped base: its unhinted chance of writing the reference answer at the
// hard level (src/rl/bases/gate-chance.ts), shipped beside the base as
// checkpoints/<task>-<model>.gate.json, written by
// `npm run --silent gate -- --task <task> --problems 5000 --json`. The reading guide turns it into
// the chance that plain GRPO escapes by itself.
import * as v from 'valibot';
import type { GateChance } from '../rl/bases/gate-chance.ts';
import { isFamilyId } from '../tasks/registry.ts';
import type { ModelSize, PageTask } from './experiment-config.ts';

export type ShippedGate = Pick<GateChance, 'level' | 'problems' | 'chance'>;

const GateSchema = v.object({
  level: v.pipe(v.number(), v.integer(), v.minValue(1)),
  problems: v.pipe(v.number(), v.integer(), v.minValue(1)),
  chance: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
});

/** The file's figures, or null where they are not a gate reading. */
export function readShippedGate(json: unknown): ShippedGate | null {
  const r = v.safeParse(GateSchema, json);
  return r.success ? r.output : null;
}

/** The shipped base's gate; null where none ships (a custom task, a model without one) or it cannot be read. */
export async function fetchShippedGate(
  task: PageTask,
  model: ModelSize,
): Promise<ShippedGate | null> {
  if (!isFamilyId(task)) return null;
  const url = new URL(
    `${import.meta.env.BASE_URL}checkpoints/${task}-${model}.gate.json`,
    document.baseURI,
  );
  try {
    const res = await fetch(url);
    return res.ok ? readShippedGate(await res.json()) : null;
  } catch {
    // A reading the page can do without: the guide says it has none.
    return null;
  }
}
