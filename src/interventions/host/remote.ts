import * as Comlink from 'comlink';
import type { Intervention, Reprompt, ScoredBatch, TrainContext } from '../../rl/intervention.ts';
import {
  createMentorApi,
  type LlmEnabled,
  type LlmProgress,
  type LlmSpec,
  type MentorApi,
  type MentorLoaded,
  type MentorSpec,
} from './worker-api.ts';
import type { ImportCode } from '../../platform/import-from-blob.ts';
import type { TaskInfo } from '../../tasks/custom/task-info.ts';
import { CUSTOM, type HostedMethod } from '../methods.ts';

/** A connection to a mentor: an endpoint Comlink can talk over, and how to end it. */
export interface MentorLink {
  endpoint: Comlink.Endpoint;
  dispose(): void;
}

/** Opens a fresh mentor (a new worker in the browser, a new channel in Node). */
export type MentorLinkFactory = () => MentorLink;

/** How often a mentor restart may reload the language model before it is switched off. */
export const MAX_LLM_RELOADS = 2;

/**
 * An intervention that lives in the mentor worker. The trainer sees only Intervention; when a
 * plan fails or misses the trainer's deadline, recover() ends the worker and starts a new one
 * (the new mentor starts its statistics afresh — said in the restart count).
 *
 * The opt-in language model goes with the mentor: a restarted mentor loads it again (from the
 * browser's cache), at most MAX_LLM_RELOADS times per opt-in, so a model that makes the mentor
 * miss its deadlines cannot keep it restarting; then it is switched off and `onLlmLost` says so.
 * A restart while a model loads ends that load with a message rather than leaving it hanging.
 */
export class RemoteIntervention implements Intervention {
  private link!: MentorLink;
  private api!: Comlink.Remote<MentorApi>;
  /** Settles when this link is given up (recover()): calls on it will never answer. */
  private ended!: Promise<void>;
  private endLink!: () => void;
  /** The language model the mentor should have, and how often a restart has reloaded it. */
  private llm: { spec: LlmSpec; reloads: number } | null = null;
  private enabling = 0;
  /** Moves on every enable and disable: an enable answered after a newer call changes nothing. */
  private llmTurn = 0;
  restarts = 0;
  /** The reload after a restart, while it runs. */
  reloading: Promise<LlmEnabled> | null = null;
  /** Told when the language model is lost for good (it failed to reload after a restart). */
  onLlmLost: ((message: string) => void) | null = null;
  /** Told how each (re)started worker's configure() went: the person's code may not load. */
  onConfigured: ((loaded: MentorLoaded) => void) | null = null;
  readonly name: HostedMethod | typeof CUSTOM;

  /** `spec`: a built-in method, or the person's code (replaced later by setCode). */
  constructor(
    private spec: MentorSpec,
    private readonly seed: number,
    private readonly factory: MentorLinkFactory,
    /** The page's custom task, where the lane trains on one (each restarted worker is told). */
    private readonly task: TaskInfo | null = null,
  ) {
    this.name = typeof spec === 'string' ? spec : CUSTOM;
    this.connect();
  }

  private connect(): void {
    this.link = this.factory();
    this.api = Comlink.wrap<MentorApi>(this.link.endpoint);
    this.ended = new Promise((resolve) => (this.endLink = resolve));
    void this.untilEnd<MentorLoaded | null>(
      this.api.configure(this.spec, this.seed, this.task),
      () => null,
    )
      .then((loaded) => loaded && this.onConfigured?.(loaded))
      .catch(() => {});
    // A restarted mentor gets its language model back, unless a load is under way (it ends).
    if (this.llm && this.enabling === 0) this.reload(this.llm);
  }

  /** `call` on the current link, or `onEnd` when the link is given up first. */
  private untilEnd<T>(call: Promise<T>, onEnd: () => T): Promise<T> {
    return Promise.race([call, this.ended.then(onEnd)]);
  }

  private reload(llm: { spec: LlmSpec; reloads: number }): void {
    const lost = (why: string) => {
      if (this.llm !== llm) return;
      this.llm = null;
      this.onLlmLost?.(
        `Language model "${llm.spec.modelId}" switched off: ${why}; the mentor goes on with its rules.`,
      );
    };
    if (llm.reloads >= MAX_LLM_RELOADS) {
      lost(`the mentor had to restart ${llm.reloads + 1} times with it on`);
      return;
    }
    llm.reloads++;
    const reload = this.untilEnd<LlmEnabled>(
      this.api.enableLlm(llm.spec).catch((e: unknown): LlmEnabled => ({
        ok: false,
        message: String((e as Error).message ?? e),
      })),
      (): LlmEnabled => ({ ok: false, message: 'the mentor restarted again while reloading it' }),
    ).then((r) => {
      if (!r.ok) lost(`it could not be reloaded after a mentor restart (${r.message})`);
      if (this.reloading === reload) this.reloading = null;
      return r;
    });
    this.reloading = reload;
  }

  plan(batch: ScoredBatch, ctx: TrainContext): Promise<Reprompt[]> {
    return this.api.plan(batch, ctx);
  }

  async observe(retry: ScoredBatch, ctx: TrainContext): Promise<void> {
    await this.api.observe(retry, ctx);
  }

  stats(): Promise<Record<string, number>> {
    return this.api.stats();
  }

  saveState(): Promise<unknown> {
    return this.api.saveState();
  }

  restoreState(state: unknown): Promise<void> {
    return this.api.restoreState(state);
  }

  /** Load a language model into the remote mentor team (see MentorApi.enableLlm). */
  async enableLlm(spec: LlmSpec, onProgress?: LlmProgress): Promise<LlmEnabled> {
    this.enabling++;
    const turn = ++this.llmTurn;
    try {
      const r = await this.untilEnd<LlmEnabled>(
        this.api.enableLlm(spec, onProgress ? Comlink.proxy(onProgress) : undefined),
        () => ({
          ok: false,
          message: `the mentor restarted while language model "${spec.modelId}" was loading (it missed the trainer's deadline) — the mentor goes on with its rules`,
        }),
      );
      if (turn === this.llmTurn) this.llm = r.ok ? { spec, reloads: 0 } : null;
      return r;
    } finally {
      this.enabling--;
    }
  }

  async disableLlm(): Promise<void> {
    this.llmTurn++;
    this.llm = null;
    await this.untilEnd(this.api.disableLlm(), () => undefined);
  }

  /** Whether the mentor has (or is getting back) a language model. */
  get llmOn(): boolean {
    return this.llm !== null;
  }

  recover(): void {
    this.restarts++;
    this.reconnect();
  }

  /** The person's new code, in a fresh worker (the old one ends, with its state). */
  setCode(code: string | null): void {
    if (typeof this.spec === 'string') throw new Error(`the ${this.name} method runs no code`);
    this.spec = { ...this.spec, code };
    this.reconnect();
  }

  private reconnect(): void {
    this.endLink();
    this.api[Comlink.releaseProxy]();
    this.link.dispose();
    this.connect();
  }
}

/**
 * A mentor in this thread behind a MessageChannel: the Node form of the mentor worker
 * (`importCode`: how a custom method's code is imported here).
 */
export function inProcessMentor(importCode?: ImportCode): MentorLink {
  const channel = new MessageChannel();
  Comlink.expose(createMentorApi(importCode), channel.port1);
  return {
    endpoint: channel.port2,
    dispose() {
      channel.port1.close();
      channel.port2.close();
    },
  };
}
