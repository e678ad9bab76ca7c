// The module method's thread starts here: TypeScript (for the worker and for a module written in
// it) is registered in this thread first, since a worker thread does not run the process's --import.
import { register } from 'tsx/esm/api';

register();
await import('./module.worker.ts');
