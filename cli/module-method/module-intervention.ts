// A module method as the trainer sees it: an Intervention whose calls go to the module in a worker
// thread (module.worker.ts). A call that throws, or a thread that dies (out of memory, an exit),
// fails that call at once; one that never answers runs into the trainer's deadline. Either way the
// trainer calls recover(), which ends the thread and starts the module afresh (its state lost).
import * as Comlink from 'comlink';
import { basename, extname, resolve } from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import type {
  Intervention,
  Reprompt,
  ScoredBatch,
  TrainContext,
} from '../../src/rl/intervention.ts';
import type { LoadFault, MethodContext } from '../../src/interventions/host/find-intervention.ts';
import type { Loaded, ModuleWorkerApi, ModuleWorkerData } from './module.worker.ts';

/** A module that cannot be used: which of the three faults, and what it said. */
export class ModuleMethodError extends Error {
  constructor(
    readonly path: string,
    readonly fault: LoadFault,
    detail: string,
  ) {
    super(`--method ${path} ${fault}: ${detail}`);
  }
}

/** A heap per module thread: enough for any mentor's bookkeeping, not enough to take the machine. */
const HEAP_MB = 256;

/** Whether a --method value names a module file rather than a built-in method. */
export function isModulePath(method: string): boolean {
  return /\.(m?js|ts)$/.test(method) || method.includes('/');
}

/** The name a module's runs go by where it names itself nothing: its file name, less the ending. */
export function fileMethodName(path: string): string {
  return basename(path, extname(path));
}

class ModuleThread {
  readonly api: Comlink.Remote<ModuleWorkerApi>;
  /** Rejects when the thread ends: a call on a dead thread fails at once rather than at the deadline. */
  readonly died: Promise<never>;
  private readonly worker: Worker;

  constructor(path: string, context: MethodContext) {
    const { port1, port2 } = new MessageChannel();
    const data: ModuleWorkerData = { path, context, port: port2 };
    this.worker = new Worker(new URL('./module-worker-boot.mjs', import.meta.url), {
      workerData: data,
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
      stdout: false,
    });
    this.died = new Promise<never>((_, reject) => {
      this.worker.on('error', (e: Error) => reject(new Error(`its thread failed: ${e.message}`)));
      this.worker.on('exit', (code) => reject(new Error(`its thread ended (exit code ${code})`)));
    });
    this.died.catch(() => {});
    this.api = Comlink.wrap<ModuleWorkerApi>(port1 as unknown as Comlink.Endpoint);
  }

  call<T>(run: (api: Comlink.Remote<ModuleWorkerApi>) => Promise<T>): Promise<T> {
    return Promise.race([run(this.api), this.died]);
  }

  end(): void {
    this.api[Comlink.releaseProxy]();
    void this.worker.terminate();
  }
}

export class ModuleIntervention implements Intervention {
  private thread: ModuleThread;
  restarts = 0;

  private constructor(
    readonly name: string,
    private readonly path: string,
    private readonly context: MethodContext,
    thread: ModuleThread,
  ) {
    this.thread = thread;
  }

  /**
   * The module at `path`, loaded and checked in its thread. Throws ModuleMethodError when it does
   * not load, throws at start-up or exports no intervention.
   */
  static async open(path: string, context: MethodContext): Promise<ModuleIntervention> {
    const file = resolve(path);
    const thread = new ModuleThread(file, context);
    let loaded: Loaded;
    try {
      loaded = await thread.call((api) => api.load() as Promise<Loaded>);
    } catch (e) {
      thread.end();
      throw new ModuleMethodError(path, 'threw at start-up', (e as Error).message);
    }
    if (!loaded.ok) {
      thread.end();
      throw new ModuleMethodError(path, loaded.fault, loaded.message);
    }
    const name =
      loaded.name || (loaded.exportName === 'default' ? fileMethodName(path) : loaded.exportName);
    return new ModuleIntervention(name, file, context, thread);
  }

  plan(batch: ScoredBatch, ctx: TrainContext): Promise<Reprompt[]> {
    // Whatever comes back is checked by the trainer, reprompt by reprompt.
    return this.thread.call((api) => api.plan(batch, ctx)) as Promise<Reprompt[]>;
  }

  observe(retry: ScoredBatch, ctx: TrainContext): Promise<void> {
    return this.thread.call((api) => api.observe(retry, ctx));
  }

  async stats(): Promise<Record<string, number>> {
    const s = await this.thread.call((api) => api.stats());
    // Only named finite figures reach the metrics.
    if (typeof s !== 'object' || s === null) return {};
    return Object.fromEntries(
      Object.entries(s).filter((e): e is [string, number] => Number.isFinite(e[1])),
    );
  }

  saveState(): Promise<unknown> {
    return this.thread.call((api) => api.saveState());
  }

  restoreState(state: unknown): Promise<void> {
    return this.thread.call((api) => api.restoreState(state));
  }

  /** The thread ended and the module started again, afresh. */
  recover(): void {
    this.thread.end();
    this.restarts++;
    this.thread = new ModuleThread(this.path, this.context);
  }

  /** Ends the thread, so the process can exit. */
  close(): void {
    this.thread.end();
  }
}
