// A checkpoint file the person brings: refused when too large, else read and checked completely
// (in a worker) before it may become the policy both lanes start from.
import type { BasePolicy } from './base-checkpoint.ts';
import type { BaseMeasure } from './custom-task/base-report.ts';
import { MAX_CHECKPOINT_BYTES, type CheckedCheckpoint } from './checkpoint-check.ts';
import { checkCheckpointBytes, type CheckResult } from './checkpoint-client.ts';
import { otherModuleWarning } from '../tasks/custom/base-task.ts';
import { isFamilyId } from '../tasks/registry.ts';
import { CUSTOM_TASK, type FamilyId, type PageTask } from './experiment-config.ts';
import type { NoticeLevel } from './notices.svelte.ts';

/**
 * The base the file makes, with the notice that says so; or the notice why it makes none. A
 * custom task's base brings the literacy table and gate measured of it for the checked module,
 * where its file carries them.
 */
export type CheckpointImport =
  | {
      ok: true;
      base: BasePolicy;
      task: FamilyId | null;
      report: BaseMeasure | null;
      notice: string;
      level: NoticeLevel;
    }
  | { ok: false; notice: string };

/** What the page runs when a file comes: its task, and on the custom task the checked module's id. */
export interface ImportTarget {
  task: PageTask;
  moduleId: string | null;
}

const failure = (name: string, why: string) => ({
  ok: false as const,
  notice: `Import of "${name}" failed: ${why}. Nothing was changed.`,
});

/**
 * A checkpoint file made into a base: a shipped family's base switches the page to its family; a
 * task module's (warmed up in the page, or by `npm run pretrain -- --task ./mytask.js`) is taken
 * only on the custom task with a checked task, with a warning where it was warmed up for another
 * module than the checked one.
 */
export async function importCheckpointFile(
  file: File,
  target: ImportTarget,
): Promise<CheckpointImport> {
  const name = file.name.length > 60 ? `${file.name.slice(0, 57)}…` : file.name;
  let bytes: Uint8Array;
  let result: CheckResult;
  try {
    if (file.size > MAX_CHECKPOINT_BYTES)
      throw new Error(
        `the file is ${(file.size / 2 ** 20).toFixed(0)} MiB, too large for a checkpoint`,
      );
    bytes = new Uint8Array(await file.arrayBuffer());
    result = await checkCheckpointBytes(bytes);
  } catch (e) {
    return failure(name, (e as Error).message);
  }
  if (!result.ok) return failure(name, result.message);
  return checkedImport(name, bytes, result.checkpoint, target);
}

/** What a checked checkpoint named `name` makes on the page as it is now. */
export function checkedImport(
  name: string,
  bytes: Uint8Array,
  checkpoint: Pick<CheckedCheckpoint, 'task' | 'taskModule' | 'parameters' | 'options' | 'report'>,
  target: ImportTarget,
): CheckpointImport {
  const { task, taskModule, parameters, options, report } = checkpoint;
  const custom = task === CUSTOM_TASK;
  const module = taskModule === null ? 'a custom task' : `the task "${taskModule}"`;
  if (custom && (target.task !== CUSTOM_TASK || target.moduleId === null))
    return failure(
      name,
      `it was warmed up for ${module}: pick Custom task in the task menu, check that task, then import it`,
    );
  const about = [
    `${parameters.toLocaleString('en-US')} parameters`,
    options,
    custom ? `warmed up for ${module}` : (task ?? ''),
  ]
    .filter(Boolean)
    .join(', ');
  const elsewhere =
    custom && target.moduleId ? otherModuleWarning(taskModule, target.moduleId) : null;
  return {
    ok: true,
    base: { bytes, label: `imported ${name}`, imported: true },
    task: task !== null && isFamilyId(task) ? task : null,
    // Measured at another module's hard level, it would say nothing of the checked one.
    report: custom && !elsewhere ? report : null,
    notice: [`Imported "${name}" (${about}): both lanes restarted from it.`, elsewhere]
      .filter(Boolean)
      .join(' '),
    level: elsewhere ? 'warning' : 'info',
  };
}
