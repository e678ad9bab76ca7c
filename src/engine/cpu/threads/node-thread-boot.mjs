// A pool thread in Node starts here: TypeScript is registered in this thread first (a worker
// thread does not run the process's --import hooks under every runner), then it serves for good.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { serve } = await import('./pool-thread.ts');
serve(workerData);
