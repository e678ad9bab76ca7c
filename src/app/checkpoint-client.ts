import * as Comlink from 'comlink';
import type { CheckpointApi, CheckResult } from './workers/checkpoint.worker.ts';

export type { CheckResult };

/** Check checkpoint bytes in a short-lived worker; the bytes are copied, the caller keeps them. */
export async function checkCheckpointBytes(bytes: Uint8Array): Promise<CheckResult> {
  const worker = new Worker(new URL('./workers/checkpoint.worker.ts', import.meta.url), {
    type: 'module',
    name: 'checkpoint-check',
  });
  try {
    return await Comlink.wrap<CheckpointApi>(worker).check(bytes);
  } finally {
    worker.terminate();
  }
}
