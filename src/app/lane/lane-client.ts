import * as Comlink from 'comlink';
import type { LlmEnabled, LlmProgress, LlmSpec } from '../../mentor/api.ts';
import type { SessionStatus } from '../../rl/session.ts';
import type { RolloutGroup } from '../../rl/rollouts.ts';
import type { TrainingState } from '../../rl/training-state.ts';
import type { LaneApi, LaneStep } from './lane.worker.ts';
import type { LaneConfig, LaneEvent, LaneInfo } from './lane-types.ts';

/** Where a lane's worker starts: a checkpoint that has done `step` steps, or a training state. */
export type LaneStart = { checkpoint: Uint8Array; step: number } | { state: TrainingState };

/** A lane's worker is gone: it crashed, ended, or missed a deadline (and was ended). */
export class LaneWorkerLost extends Error {
  override name = 'LaneWorkerLost';
}

/** Loading a checkpoint and building a backend (shader compiles included) may take this long. */
const INIT_DEADLINE_MS = 120_000;

let workers = 0;

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);

/**
 * The page's handle on one lane's worker, and its watch over it: an uncaught error, a message
 * that cannot be read, the worker ending (it holds a Web Lock for its lifetime, which the page
 * waits on) or a call past its deadline each end the worker, and every call still waiting on it
 * fails with LaneWorkerLost at once.
 */
export class LaneClient {
  private readonly worker: Worker;
  private readonly api: Comlink.Remote<LaneApi>;
  private readonly lockName = `mentor-lane-${Date.now()}-${++workers}-${Math.random()}`;
  private endWorker!: (why: string) => void;
  /** Settles with the reason when the worker is gone: calls still waiting on it never answer. */
  readonly ended = new Promise<string>((resolve) => (this.endWorker = resolve));
  /** Why the worker is gone; null while it runs. */
  gone: string | null = null;

  /** `name`: the worker's name (e.g. "lane A"), as the browser's tools show it. */
  constructor(name: string) {
    this.worker = new Worker(new URL('./lane.worker.ts', import.meta.url), {
      type: 'module',
      name,
    });
    this.api = Comlink.wrap<LaneApi>(this.worker);
    this.worker.addEventListener('error', (e) =>
      this.lose(`its worker failed (${e.message || 'an error it did not catch'})`),
    );
    this.worker.addEventListener('messageerror', () =>
      this.lose('a message from its worker could not be read'),
    );
  }

  /** End the worker for `why`; the first reason stands. */
  lose(why: string): void {
    if (this.gone !== null) return;
    this.gone = why;
    this.endWorker(why);
    this.worker.terminate();
  }

  /** `call`, unless the worker goes first or `deadlineMs` passes (the worker is then ended). */
  private watch<T>(call: Promise<T>, deadlineMs = 0): Promise<T> {
    if (this.gone !== null) return Promise.reject(new LaneWorkerLost(this.gone));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late =
      deadlineMs > 0
        ? new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              const why = `its worker did not answer within ${seconds(deadlineMs)}`;
              this.lose(why);
              reject(new LaneWorkerLost(why));
            }, deadlineMs);
          })
        : new Promise<never>(() => {});
    const lost = this.ended.then((why) => Promise.reject(new LaneWorkerLost(why)));
    return Promise.race([call, lost, late]).finally(() => clearTimeout(timer));
  }

  async init(
    config: LaneConfig,
    from: LaneStart,
    onEvent: (e: LaneEvent) => void,
  ): Promise<LaneInfo> {
    await this.watch(this.api.holdLock(this.lockName), INIT_DEADLINE_MS);
    this.watchLife();
    // Copies: the page keeps what a later restart needs, and transferring would empty it.
    const start =
      'state' in from ? { state: from.state } : { ...from, checkpoint: from.checkpoint.slice() };
    const transfer = 'checkpoint' in start ? [start.checkpoint.buffer] : [];
    return this.watch(
      this.api.init(config, Comlink.transfer(start, transfer), Comlink.proxy(onEvent)),
      INIT_DEADLINE_MS,
    );
  }

  /** The worker holds its lock while it lives: when the page gets the lock, the worker is gone. */
  private watchLife(): void {
    if (typeof navigator === 'undefined' || !navigator.locks) return;
    void navigator.locks.request(this.lockName, () =>
      this.lose('its worker ended without a word (closed, or killed by the browser)'),
    );
  }

  /** One step and the state after it; the worker is ended if it takes longer than `deadlineMs`. */
  step(deadlineMs: number): Promise<LaneStep | null> {
    return this.watch(this.api.step(), deadlineMs);
  }
  setLevel(level: number): Promise<void> {
    return this.watch(this.api.setLevel(level));
  }
  status(): Promise<SessionStatus> {
    return this.watch(this.api.status());
  }
  rollouts(): Promise<RolloutGroup[]> {
    return this.watch(this.api.rollouts());
  }
  exportCheckpoint(): Promise<Uint8Array> {
    return this.watch(this.api.exportCheckpoint());
  }
  /** Load a language model into the lane's mentor team (see the lane worker's enableLlm). */
  enableLlm(spec: LlmSpec, onProgress?: LlmProgress): Promise<LlmEnabled> {
    return this.watch<LlmEnabled>(
      this.api.enableLlm(spec, onProgress ? Comlink.proxy(onProgress) : undefined),
    ).catch((e: unknown): LlmEnabled => {
      if (e instanceof LaneWorkerLost)
        return { ok: false, message: 'the lane was restarted while it loaded' };
      throw e;
    });
  }
  disableLlm(): Promise<void> {
    return this.watch(this.api.disableLlm()).catch((e: unknown) => {
      if (!(e instanceof LaneWorkerLost)) throw e;
    });
  }
  loseDevice(): Promise<boolean> {
    return this.watch(this.api.loseDevice());
  }
  dispose(): void {
    this.lose('it was ended');
  }
}
