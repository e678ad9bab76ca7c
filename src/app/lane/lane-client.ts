import * as Comlink from 'comlink';
import { inheritingWorker } from '../../platform/inheriting-worker.ts';
import laneWorkerUrl from './lane.worker.ts?worker&url';
import type { LlmEnabled, LlmProgress, LlmSpec } from '../../interventions/host/worker-api.ts';
import type { SessionStatus } from '../../rl/session.ts';
import type { RolloutGroup } from '../../rl/rollouts.ts';
import type { LevelChange } from '../../rl/level-schedule.ts';
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
/** Calls between steps (a level, the status, rollouts, a checkpoint, the language model's load). */
const CALL_DEADLINE_MS = 120_000;

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
  /** The calls waiting on the worker: each fails when it goes (and leaves this set when it settles). */
  private readonly waiting = new Set<(e: LaneWorkerLost) => void>();

  /** `name`: the worker's name (e.g. "lane A"), as the browser's tools show it. */
  constructor(name: string) {
    // Under the page's policy on any host: the person's mentor runs in a worker this one starts.
    this.worker = inheritingWorker(laneWorkerUrl, import.meta.url, name);
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
    for (const fail of this.waiting) fail(new LaneWorkerLost(why));
    this.waiting.clear();
  }

  /**
   * `call`, unless the worker goes first or `deadlineMs` passes (the worker is then ended; 0: no
   * deadline, for a language model's download, which may take long while steps go on). Each
   * call registers itself and leaves when it settles: nothing stays behind a worker's life, which
   * matters since a step's answer holds a whole training state.
   */
  private watch<T>(call: Promise<T>, deadlineMs: number): Promise<T> {
    if (this.gone !== null) return Promise.reject(new LaneWorkerLost(this.gone));
    return new Promise<T>((resolve, reject) => {
      const fail = (e: LaneWorkerLost) => reject(e);
      this.waiting.add(fail);
      const timer =
        deadlineMs > 0
          ? setTimeout(
              () => this.lose(`its worker did not answer within ${seconds(deadlineMs)}`),
              deadlineMs,
            )
          : undefined;
      call.then(resolve, reject).finally(() => {
        clearTimeout(timer);
        this.waiting.delete(fail);
      });
    });
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
  setMentorCode(code: string | null): Promise<void> {
    return this.watch(this.api.setMentorCode(code), CALL_DEADLINE_MS);
  }
  setLevel(level: number): Promise<LevelChange[]> {
    return this.watch(this.api.setLevel(level), CALL_DEADLINE_MS);
  }
  status(): Promise<SessionStatus> {
    return this.watch(this.api.status(), CALL_DEADLINE_MS);
  }
  rollouts(): Promise<RolloutGroup[]> {
    return this.watch(this.api.rollouts(), CALL_DEADLINE_MS);
  }
  exportCheckpoint(): Promise<Uint8Array> {
    return this.watch(this.api.exportCheckpoint(), CALL_DEADLINE_MS);
  }
  /** Load a language model into the lane's mentor team (see the lane worker's enableLlm). */
  enableLlm(spec: LlmSpec, onProgress?: LlmProgress): Promise<LlmEnabled> {
    return this.watch<LlmEnabled>(
      this.api.enableLlm(spec, onProgress ? Comlink.proxy(onProgress) : undefined),
      0,
    ).catch((e: unknown): LlmEnabled => {
      if (e instanceof LaneWorkerLost)
        return { ok: false, message: 'the lane was restarted while it loaded' };
      throw e;
    });
  }
  disableLlm(): Promise<void> {
    return this.watch(this.api.disableLlm(), CALL_DEADLINE_MS).catch((e: unknown) => {
      if (!(e instanceof LaneWorkerLost)) throw e;
    });
  }
  loseDevice(): Promise<boolean> {
    return this.watch(this.api.loseDevice(), CALL_DEADLINE_MS);
  }
  dispose(): void {
    this.lose('it was ended');
  }
}
