import { isFamilyId } from '../tasks/registry.ts';
import type { FamilyId, ModelSize, PageTask } from './experiment-config.ts';

/** Where a shipped base policy lives: `checkpoints/<task>-<model>.safetensors` under the site's base. */
export function baseCheckpointUrl(task: FamilyId, model: ModelSize): string {
  return new URL(
    `${import.meta.env.BASE_URL}checkpoints/${task}-${model}.safetensors`,
    document.baseURI,
  ).href;
}

/** The shipped base policy's bytes; a clear Error when it is missing (the lane workers check it). */
export async function fetchBaseCheckpoint(task: FamilyId, model: ModelSize): Promise<Uint8Array> {
  const url = baseCheckpointUrl(task, model);
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new Error(`could not fetch the base policy ${url}: ${(e as Error).message}`, {
      cause: e,
    });
  }
  if (!res.ok)
    throw new Error(
      `no base policy for ${task} (${model} model) at ${url} (HTTP ${res.status}); make one with npm run pretrain -- --task ${task} --model ${model}`,
    );
  return new Uint8Array(await res.arrayBuffer());
}

/** What both lanes start from: the shipped base policy, or an imported (or restored) checkpoint. */
export interface BasePolicy {
  bytes: Uint8Array;
  label: string;
  imported: boolean;
}

export async function shippedBase(task: PageTask, model: ModelSize): Promise<BasePolicy> {
  if (!isFamilyId(task))
    throw new Error(
      'A custom task has no shipped base policy: check your task and warm a base up for it in the Custom task panel',
    );
  const bytes = await fetchBaseCheckpoint(task, model);
  return { bytes, label: `shipped base (${task}-${model})`, imported: false };
}
