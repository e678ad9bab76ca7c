// The person's task code made a family, in a worker (never the page): imported from a blob: URL,
// read, checked at every level and registered under the page's custom id, for the worker's
// trainer, hints and critiques. Faults are Errors whose message says what is wrong.
import { importFromBlob } from '../../platform/import-from-blob.ts';
import { placedSyntaxError } from '../../platform/syntax-error-place.ts';
import { ARCHITECTURES, type ModelSize } from '../../model/config.ts';
import { customEntry } from '../../tasks/custom/custom-entry.ts';
import { checkTask, errorMessage, refusalText } from '../../tasks/custom/task-check.ts';
import { taskInfo, type TaskInfo } from '../../tasks/custom/task-info.ts';
import { readTaskModule } from '../../tasks/custom/task-module.ts';
import type { FamilyEntry } from '../../tasks/family-entry.ts';
import { registerFamily } from '../../tasks/registry.ts';
import { CUSTOM_TASK_ID } from './page-task.ts';

export async function loadTaskCode(
  code: string,
  model: ModelSize,
  onLevel: (level: number) => void = () => {},
): Promise<{ entry: FamilyEntry; info: TaskInfo }> {
  let namespace: Record<string, unknown>;
  try {
    namespace = await importFromBlob(code);
  } catch (e) {
    const why =
      e instanceof SyntaxError ? await placedSyntaxError(e.message, code) : errorMessage(e);
    throw new Error(`the task's code does not load: ${why}`, { cause: e });
  }
  const task = readTaskModule(namespace);
  const check = checkTask(task, ARCHITECTURES[model].contextLength, 1, onLevel);
  if (!check.ok) throw new Error(refusalText(task.id, check.faults));
  const entry = customEntry(task, check.checked, CUSTOM_TASK_ID) as unknown as FamilyEntry;
  registerFamily(entry);
  return { entry, info: taskInfo(task, check.checked) };
}
