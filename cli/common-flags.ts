import { ARCHITECTURES, MODEL_SIZES, type ModelSize } from '../src/model/config.ts';
import {
  FAMILY_IDS,
  familyEntry,
  isFamilyId,
  type FamilyEntry,
  type TaskId,
} from '../src/tasks/index.ts';
import { UsageError, type Flag, type FlagValues } from './flags.ts';
import { isTaskPath, loadTaskModule, loadedTask } from './task-module/load-task.ts';

/** Flags several tools share, defined once so their names, values and help agree. */
export const TASK_FLAG: Flag = {
  name: 'task',
  kind: 'string',
  default: 'arithmetic',
  help: `task family: ${FAMILY_IDS.join(', ')}, or a task module file (./mytask.js, docs/tasks.md)`,
  preload: async (value, argv) => {
    if (!isTaskPath(value)) return;
    const i = argv.indexOf('--model');
    const size = (i >= 0 && MODEL_SIZES.find((s) => s === argv[i + 1])) || 'tiny';
    await loadTaskModule(value, ARCHITECTURES[size].contextLength);
  },
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
export const THREADS_FLAG: Flag = {
  name: 'threads',
  kind: 'int',
  default: 1,
  min: 1,
  help: "threads the CPU backend's kernels split their rows across (1: one thread; a table runs two runs at a time, so one each)",
};
export const SCHEDULE_FLAG: Flag = {
  name: 'schedule',
  kind: 'string',
  help: 'level changes "step:level,…" (overrides --scenario)',
};

/**
 * The family --task names: a shipped one, or the module file it names (loaded by the flag's
 * preload). `flag` is the value as given, what a run started for it is passed.
 */
export function taskOf(f: FlagValues): { task: TaskId; entry: FamilyEntry; flag: string } {
  const flag = String(f.task);
  const entry = isTaskPath(flag)
    ? loadedTask(flag)
    : isFamilyId(flag)
      ? familyEntry(flag)
      : undefined;
  if (!entry)
    throw new UsageError(
      isTaskPath(flag)
        ? `--task ${flag} was not loaded (its preload did not run)`
        : `--task must be one of ${FAMILY_IDS.join(', ')} or a task module file (./mytask.js); got "${flag}"`,
    );
  return { task: entry.family.id, entry, flag };
}

export function modelOf(f: FlagValues): ModelSize {
  return f.model as ModelSize;
}
