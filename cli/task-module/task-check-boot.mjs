// The load-time check's thread starts here: TypeScript is registered in this thread first (a
// worker thread does not run the process's --import), for the checker and for a task written in it.
import { register } from 'tsx/esm/api';

register();
await import('./task-check.worker.ts');
