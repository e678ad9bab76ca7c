import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LaneClient, LaneWorkerLost } from './lane-client.ts';

/** A worker that takes every message and answers none, and lets the test raise its events. */
class SilentWorker extends EventTarget {
  static last: SilentWorker | null = null;
  terminated = false;
  posted = 0;
  constructor(
    readonly url: URL,
    readonly options: WorkerOptions,
  ) {
    super();
    SilentWorker.last = this;
  }
  postMessage(): void {
    this.posted++;
  }
  terminate(): void {
    this.terminated = true;
  }
}

describe('LaneClient watches its worker', () => {
  beforeEach(() => vi.stubGlobal('Worker', SilentWorker));
  afterEach(() => vi.unstubAllGlobals());

  it('names the worker after its lane', () => {
    new LaneClient('lane B');
    expect(SilentWorker.last?.options).toMatchObject({ type: 'module', name: 'lane B' });
  });

  it('a step past its deadline ends the worker and fails with the reason', async () => {
    const client = new LaneClient('lane A');
    const worker = SilentWorker.last as SilentWorker;
    const t0 = performance.now();
    const step = client.step(80);
    await expect(step).rejects.toThrow(LaneWorkerLost);
    await expect(step).rejects.toThrow('its worker did not answer within 80 ms');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(75);
    expect(worker.terminated).toBe(true);
    expect(client.gone).toBe('its worker did not answer within 80 ms');
    // Every later call fails at once with the same reason.
    await expect(client.status()).rejects.toThrow('did not answer within 80 ms');
  });

  it('an uncaught error in the worker fails every waiting call at once, and ends the worker', async () => {
    const client = new LaneClient('lane A');
    const worker = SilentWorker.last as SilentWorker;
    const step = client.step(60_000);
    const level = client.setLevel(4);
    worker.dispatchEvent(Object.assign(new Event('error'), { message: 'out of memory' }));
    await expect(step).rejects.toThrow('its worker failed (out of memory)');
    await expect(level).rejects.toThrow(LaneWorkerLost);
    expect(worker.terminated).toBe(true);
    expect(await client.ended).toBe('its worker failed (out of memory)');
  });

  it('an unreadable message is a lost worker too; the language model load says the lane restarted', async () => {
    const client = new LaneClient('lane A');
    const worker = SilentWorker.last as SilentWorker;
    const load = client.enableLlm({ modelId: 'm', source: { local: true, modelRoot: '/m' } });
    worker.dispatchEvent(new Event('messageerror'));
    expect(await load).toEqual({ ok: false, message: 'the lane was restarted while it loaded' });
    await expect(client.rollouts()).rejects.toThrow('a message from its worker could not be read');
  });
});
