// `--task ./mytask.js`: a task module, checked in a thread of its own under a deadline (a
// `sample` that loops is named, not waited on), then imported here, where the trainer calls it,
// and registered as a family (src/tasks/registry.ts) so every tool reads it like a shipped one.
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { customEntry } from '../../src/tasks/custom/custom-entry.ts';
import { errorMessage, type CheckedTask } from '../../src/tasks/custom/task-check.ts';
import { readTaskModule } from '../../src/tasks/custom/task-module.ts';
import type { FamilyEntry } from '../../src/tasks/family-entry.ts';
import { registerFamily } from '../../src/tasks/registry.ts';

export interface CheckRequest {
  path: string;
  contextLength: number;
}

export type CheckReply =
  | { kind: 'level'; level: number }
  | { kind: 'passed'; checked: CheckedTask }
  | { kind: 'refused'; message: string };

/** A task module that cannot be used, and why (a refusal lists its faults). */
export class TaskModuleError extends Error {
  override name = 'TaskModuleError';
}

/** How long a load-time check may take: sampling every level twice is milliseconds for a sane task. */
export const CHECK_DEADLINE_MS = 30_000;
/** The check thread's heap: room for any task's problems, not for one that allocates without end. */
const HEAP_MB = 512;

/** Whether a --task value names a module file rather than a shipped family. */
export function isTaskPath(value: string): boolean {
  return /\.(m?js|ts)$/.test(value) || value.includes('/');
}

const LOADED = new Map<string, FamilyEntry>();

/** The family a module file loaded as, by the path it was given as. */
export function loadedTask(path: string): FamilyEntry | undefined {
  return LOADED.get(path);
}

/**
 * Checks, imports and registers the task module at `path`; a TaskModuleError says what is wrong
 * (it does not load, a field is malformed, the check's faults, or the check ran out of time).
 */
export async function loadTaskModule(
  path: string,
  contextLength: number,
  deadlineMs = CHECK_DEADLINE_MS,
): Promise<FamilyEntry> {
  const full = isAbsolute(path) ? path : resolve(path);
  const checked = await checkInThread({ path: full, contextLength }, deadlineMs, path);
  let entry: FamilyEntry;
  try {
    const task = readTaskModule(await import(pathToFileURL(full).href));
    // The module's own problem type is the custom one: the registry keeps every family as its union.
    entry = customEntry(task, checked) as unknown as FamilyEntry;
  } catch (e) {
    throw new TaskModuleError(`--task ${path}: ${errorMessage(e)}`);
  }
  registerFamily(entry);
  LOADED.set(path, entry);
  return entry;
}

function checkInThread(
  request: CheckRequest,
  deadlineMs: number,
  shown: string,
): Promise<CheckedTask> {
  const worker = new Worker(new URL('./task-check-boot.mjs', import.meta.url), {
    workerData: request,
    resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
  });
  let level: number | null = null;
  const fail = (why: string) => new TaskModuleError(`--task ${shown}: ${why}`);
  return new Promise<CheckedTask>((done, reject) => {
    const timer = setTimeout(() => {
      const where = level === null ? 'while it loaded' : `at level ${level}`;
      reject(
        fail(
          `its load-time check did not end within ${deadlineMs / 1000} s (${where}): a sample or verify that never returns?`,
        ),
      );
      void worker.terminate();
    }, deadlineMs);
    const end = () => {
      clearTimeout(timer);
      void worker.terminate();
    };
    worker.on('message', (m: CheckReply) => {
      if (m.kind === 'level') level = m.level;
      else {
        end();
        if (m.kind === 'passed') done(m.checked);
        else reject(fail(m.message));
      }
    });
    worker.on('error', (e) => {
      end();
      reject(fail(`its check failed: ${errorMessage(e)}`));
    });
    worker.on('exit', (code) => {
      end();
      reject(fail(`its check thread ended (exit code ${code}) before it answered`));
    });
  });
}
