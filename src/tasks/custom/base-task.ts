// The task a base checkpoint was warmed up for, as its metadata names it, and what to say where
// it was warmed up for another task module than the one it is used on. Pure: the page's import
// and the command line's --init read bases alike.
import { FAMILY_IDS, isFamilyId } from '../registry.ts';
import type { TaskId } from '../types.ts';
import { CUSTOM_TASK_ID } from './custom-problem.ts';
import { isTaskModuleId } from './task-module.ts';

export interface BaseTask {
  /** The family it was trained on, when its metadata says so (`custom` for a task module's). */
  task: TaskId | null;
  /** The task module it was warmed up for, when it was one's and its metadata names it. */
  taskModule: string | null;
}

/**
 * The task a checkpoint's metadata names: a shipped family; `custom` for a base warmed up in the
 * page (its module's id in `task_module`); or a task module's id, as `npm run pretrain -- --task
 * ./mytask.js` writes it. A value that is none of these is a fault, said in words.
 */
export function baseTaskOf(
  metadata: Readonly<Record<string, string>>,
): ({ ok: true } & BaseTask) | { ok: false; message: string } {
  const { task, task_module: module } = metadata;
  if (task === undefined) return { ok: true, task: null, taskModule: null };
  if (isFamilyId(task)) return { ok: true, task, taskModule: null };
  if (task === CUSTOM_TASK_ID) {
    if (module !== undefined && !isTaskModuleId(module))
      return {
        ok: false,
        message: `metadata "task_module": ${JSON.stringify(module.slice(0, 40))} is no task id`,
      };
    return { ok: true, task: CUSTOM_TASK_ID, taskModule: module ?? null };
  }
  if (isTaskModuleId(task)) return { ok: true, task: CUSTOM_TASK_ID, taskModule: task };
  return {
    ok: false,
    message: `metadata "task": ${JSON.stringify(task.slice(0, 40))} is neither a shipped family (${FAMILY_IDS.join(', ')}) nor a task module's id`,
  };
}

/**
 * The warning where a base warmed up for the task module `baseModule` is used on the checked
 * module `moduleId`; null where they agree, or where the base does not say (a page base from
 * before the module was recorded).
 */
export function otherModuleWarning(baseModule: string | null, moduleId: string): string | null {
  return baseModule !== null && baseModule !== moduleId
    ? `The checked task is "${moduleId}", not "${baseModule}": the base may not read its problems.`
    : null;
}
