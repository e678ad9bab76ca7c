// The thread a task module's load-time check runs in: it imports the module, reads its task and
// samples every level (src/tasks/custom/task-check.ts), telling the loader which level it is at,
// so a `sample` that never returns stalls this thread only and is named by the loader's deadline.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { placedSyntaxError } from '../../src/platform/syntax-error-place.ts';
import { checkTask, errorMessage, refusalText } from '../../src/tasks/custom/task-check.ts';
import { readTaskModule } from '../../src/tasks/custom/task-module.ts';
import type { CheckReply, CheckRequest } from './load-task.ts';

const { path, contextLength } = workerData as CheckRequest;
const post = (m: CheckReply) => parentPort?.postMessage(m);

let namespace: unknown;
try {
  namespace = await import(pathToFileURL(path).href);
} catch (e) {
  // Node's SyntaxError says what, not where: the place comes from parsing the file again.
  const why =
    e instanceof SyntaxError
      ? await placedSyntaxError(e.message, readFileSync(path, 'utf8'))
      : errorMessage(e);
  post({ kind: 'refused', message: `does not load: ${why}` });
  process.exit(0);
}
try {
  const task = readTaskModule(namespace);
  const levelAt = (level: number) => post({ kind: 'level', level });
  const check = checkTask(task, contextLength, 1, levelAt);
  post(
    check.ok
      ? { kind: 'passed', checked: check.checked }
      : { kind: 'refused', message: refusalText(task.id, check.faults) },
  );
} catch (e) {
  post({ kind: 'refused', message: errorMessage(e) });
}
