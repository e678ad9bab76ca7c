import { describe, expect, it } from 'vitest';
import { JobQueue } from './job-queue.ts';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('JobQueue', () => {
  it('runs jobs one at a time, in the order they were queued', async () => {
    const q = new JobQueue();
    const log: string[] = [];
    const gate = deferred();
    const a = q.run(async () => {
      log.push('a start');
      await gate.promise;
      log.push('a end');
      return 1;
    });
    const b = q.run(async () => {
      log.push('b start');
      return 2;
    });
    await Promise.resolve();
    expect(log).toEqual(['a start']);
    gate.resolve();
    expect(await a).toBe(1);
    expect(await b).toBe(2);
    expect(log).toEqual(['a start', 'a end', 'b start']);
  });

  it('a failed job rejects its own caller and the next job still runs', async () => {
    const q = new JobQueue();
    const failed = q.run(() => Promise.reject(new Error('boom')));
    const next = q.run(() => Promise.resolve('ran'));
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ran');
  });
});
