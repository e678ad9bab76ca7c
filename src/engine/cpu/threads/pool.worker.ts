// A pool thread in a page: the lane's worker starts it and sends what it serves with.
import type { PoolThreadInit } from './control.ts';
import { serve } from './pool-thread.ts';

self.onmessage = (e: MessageEvent<PoolThreadInit>) => serve(e.data);
