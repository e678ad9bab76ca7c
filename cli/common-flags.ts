import { MODEL_SIZES, type ModelSize } from '../src/model/config.ts';
import { FAMILY_IDS, familyEntry, type FamilyEntry, type FamilyId } from '../src/tasks/index.ts';
import type { Flag, FlagValues } from './flags.ts';

/** Flags several tools share, defined once so their names, values and help agree. */
export const TASK_FLAG: Flag = {
  name: 'task',
  kind: 'choice',
  choices: FAMILY_IDS,
  default: 'arithmetic',
  help: 'task family',
};
export const MODEL_FLAG: Flag = {
  name: 'model',
  kind: 'choice',
  choices: MODEL_SIZES,
  default: 'tiny',
  help: 'model size',
};
export const BACKEND_FLAG: Flag = {
  name: 'backend',
  kind: 'choice',
  choices: ['cpu', 'webgpu'],
  default: 'cpu',
  help: 'compute backend (webgpu: Dawn in Node)',
};
export const SCHEDULE_FLAG: Flag = {
  name: 'schedule',
  kind: 'string',
  help: 'level changes "step:level,…" (overrides --scenario)',
};

/** The family --task names (the flag parser has held it to the registry's ids). */
export function taskOf(f: FlagValues): { task: FamilyId; entry: FamilyEntry } {
  const entry = familyEntry(String(f.task));
  return { task: entry.family.id, entry };
}

export function modelOf(f: FlagValues): ModelSize {
  return f.model as ModelSize;
}
