// A checkpoint file the person brings: refused when too large, else read and checked completely
// (in a worker) before it may become the policy both lanes start from.
import type { BasePolicy } from './base-checkpoint.ts';
import { MAX_CHECKPOINT_BYTES } from './checkpoint-check.ts';
import { checkCheckpointBytes, type CheckResult } from './checkpoint-client.ts';
import { isFamilyId } from '../tasks/registry.ts';
import type { FamilyId } from './experiment-config.ts';

/** The base the file makes, with the notice that says so; or the notice why it makes none. */
export type CheckpointImport =
  | { ok: true; base: BasePolicy; task: FamilyId | null; notice: string }
  | { ok: false; notice: string };

export async function importCheckpointFile(file: File): Promise<CheckpointImport> {
  const name = file.name.length > 60 ? `${file.name.slice(0, 57)}…` : file.name;
  const failed = (why: string) => ({
    ok: false as const,
    notice: `Import of "${name}" failed: ${why}. Nothing was changed.`,
  });
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
    return failed((e as Error).message);
  }
  if (!result.ok) return failed(result.message);
  const { task, parameters, options } = result.checkpoint;
  const about = [`${parameters.toLocaleString('en-US')} parameters`, options, task ?? '']
    .filter(Boolean)
    .join(', ');
  return {
    ok: true,
    base: { bytes, label: `imported ${name}`, imported: true },
    task: task !== null && isFamilyId(task) ? task : null,
    notice: `Imported "${name}" (${about}): both lanes restarted from it.`,
  };
}
