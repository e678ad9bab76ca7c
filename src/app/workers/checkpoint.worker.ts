// Checks an imported checkpoint off the page's thread, with the model code itself (which the page
// bundle does not carry): structure, config, vocabulary, tensors, finite values.
import * as Comlink from 'comlink';
import { checkCheckpoint, type CheckedCheckpoint } from '../checkpoint-check.ts';

export type CheckResult =
  | { ok: true; checkpoint: Omit<CheckedCheckpoint, 'config'> & { layers: number; dModel: number } }
  | { ok: false; message: string };

const api = {
  check(bytes: Uint8Array): CheckResult {
    try {
      const c = checkCheckpoint(bytes);
      return {
        ok: true,
        checkpoint: {
          parameters: c.parameters,
          task: c.task,
          taskModule: c.taskModule,
          step: c.step,
          options: c.options,
          metadata: c.metadata,
          report: c.report,
          layers: c.config.layers,
          dModel: c.config.dModel,
        },
      };
    } catch (e) {
      return { ok: false, message: String((e as Error).message ?? e) };
    }
  },
};

export type CheckpointApi = typeof api;
Comlink.expose(api);
