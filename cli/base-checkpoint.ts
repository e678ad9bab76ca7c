import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { baseTaskOf, otherModuleWarning } from '../src/tasks/custom/base-task.ts';
import { isFamilyId } from '../src/tasks/registry.ts';
import type { TaskId } from '../src/tasks/types.ts';
import type { Flag } from './flags.ts';
import { UsageError } from './flags.ts';

export const INIT_FLAG: Flag = {
  name: 'init',
  kind: 'string',
  help: 'base checkpoint (default public/checkpoints/<task>-<model>.safetensors)',
};

/** The path of the checkpoint a run starts from: `--init`, else the shipped base. */
export function baseCheckpointPath(task: string, model: string, init: unknown): string {
  return String(init ?? `public/checkpoints/${task}-${model}.safetensors`);
}

/** The bytes of the checkpoint a run starts from. */
export function readBaseCheckpoint(task: string, model: string, init: unknown): Uint8Array {
  const path = baseCheckpointPath(task, model, init);
  try {
    return readFileSync(path);
  } catch {
    throw new UsageError(
      `cannot read the base checkpoint ${path} (run npm run pretrain first, or pass --init)`,
    );
  }
}

/** A checkpoint's SHA-256, hex: how a report or a saved policy names the checkpoint it started from. */
export function checkpointSha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The warning a run on the task module `task` owes where its base's metadata says it was warmed
 * up for another module (the page's import warns alike); null where it does not.
 */
export function baseTaskWarning(
  metadata: Readonly<Record<string, string>>,
  task: TaskId,
): string | null {
  if (isFamilyId(task)) return null;
  const base = baseTaskOf(metadata);
  return base.ok ? otherModuleWarning(base.taskModule, task) : null;
}
