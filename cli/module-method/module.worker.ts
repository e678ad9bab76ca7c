// The worker thread a module method runs in, apart from the trainer: it imports the person's
// module, finds its intervention and answers the trainer's calls over the port it was given. A
// module that loops forever or allocates without bound stalls or kills this thread only; the
// trainer's deadline then restarts it (module-intervention.ts).
import * as Comlink from 'comlink';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { workerData, type MessagePort } from 'node:worker_threads';
import type { ScoredBatch, TrainContext } from '../../src/rl/intervention.ts';
import {
  errorText,
  findIntervention,
  type LoadFault,
  type MethodContext,
} from '../../src/interventions/host/find-intervention.ts';
import { placedSyntaxError } from '../../src/platform/syntax-error-place.ts';

export interface ModuleWorkerData {
  path: string;
  context: MethodContext;
  port: MessagePort;
}

export type Loaded =
  | { ok: true; name: string | null; exportName: string }
  | { ok: false; fault: LoadFault; message: string };

const { path, context, port } = workerData as ModuleWorkerData;

/**
 * Whether an import failed before the module ran (not found, not parsed: a SyntaxError, or for
 * TypeScript the transform's error, which names its place) or while it ran.
 */
function importFault(e: unknown): LoadFault {
  const code = (e as { code?: unknown }).code;
  if (
    e instanceof SyntaxError ||
    (e instanceof Error && e.name === 'TransformError') ||
    code === 'ERR_MODULE_NOT_FOUND' ||
    code === 'ERR_UNKNOWN_FILE_EXTENSION'
  )
    return 'does not load';
  return 'threw at start-up';
}

const loading = (async () => {
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (e) {
    // Node's SyntaxError says what, not where: the place comes from parsing the file again.
    const message =
      e instanceof SyntaxError
        ? await placedSyntaxError(e.message, readFileSync(path, 'utf8'))
        : errorText(e);
    return { ok: false as const, fault: importFault(e), message };
  }
  return findIntervention(namespace, context);
})();

async function intervention() {
  const found = await loading;
  if (!found.ok) throw new Error(found.message);
  return found.intervention;
}

const api = {
  async load(): Promise<Loaded> {
    const found = await loading;
    if (!found.ok) return found;
    const name = (found.intervention as { name?: unknown }).name;
    return { ok: true, name: typeof name === 'string' ? name : null, exportName: found.exportName };
  },
  async plan(batch: ScoredBatch, ctx: TrainContext): Promise<unknown> {
    return (await intervention()).plan(batch, ctx);
  },
  async observe(retry: ScoredBatch, ctx: TrainContext): Promise<void> {
    await (await intervention()).observe?.(retry, ctx);
  },
  async stats(): Promise<unknown> {
    return (await (await intervention()).stats?.()) ?? {};
  },
  async saveState(): Promise<unknown> {
    return (await intervention()).saveState?.();
  },
  async restoreState(state: unknown): Promise<void> {
    await (await intervention()).restoreState?.(state);
  },
};

export type ModuleWorkerApi = typeof api;

Comlink.expose(api, port as unknown as Comlink.Endpoint);
