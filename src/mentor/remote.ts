import * as Comlink from 'comlink';
import type { Intervention, Reprompt, ScoredBatch, TrainContext } from '../rl/intervention.ts';
import {
  createMentorApi,
  type HostedMethod,
  type LlmEnabled,
  type LlmSpec,
  type MentorApi,
} from './api.ts';

/** A connection to a mentor: an endpoint Comlink can talk over, and how to end it. */
export interface MentorLink {
  endpoint: Comlink.Endpoint;
  dispose(): void;
}

/** Opens a fresh mentor (a new worker in the browser, a new channel in Node). */
export type MentorLinkFactory = () => MentorLink;

/**
 * An intervention that lives in the mentor worker. The trainer sees only Intervention; when a
 * plan fails or misses the trainer's deadline, recover() ends the worker and starts a new one
 * (the new mentor starts its statistics afresh — said in the restart count).
 */
export class RemoteIntervention implements Intervention {
  private link!: MentorLink;
  private api!: Comlink.Remote<MentorApi>;
  private llm: LlmSpec | null = null;
  restarts = 0;

  constructor(
    readonly name: HostedMethod,
    private readonly seed: number,
    private readonly factory: MentorLinkFactory,
  ) {
    this.connect();
  }

  private connect(): void {
    this.link = this.factory();
    this.api = Comlink.wrap<MentorApi>(this.link.endpoint);
    void this.api.configure(this.name, this.seed).catch(() => {});
    // A restarted mentor gets its language model back (from the browser's cache).
    if (this.llm) void this.api.enableLlm(this.llm).catch(() => {});
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

  /** Load a language model into the remote mentor team (see MentorApi.enableLlm). */
  async enableLlm(
    spec: LlmSpec,
    onProgress?: (loaded: number, total: number) => void,
  ): Promise<LlmEnabled> {
    const r = await this.api.enableLlm(spec, onProgress ? Comlink.proxy(onProgress) : undefined);
    this.llm = r.ok ? spec : null;
    return r;
  }

  async disableLlm(): Promise<void> {
    this.llm = null;
    await this.api.disableLlm();
  }

  recover(): void {
    this.api[Comlink.releaseProxy]();
    this.link.dispose();
    this.restarts++;
    this.connect();
  }
}

/** A mentor in this thread behind a MessageChannel: the Node form of the mentor worker. */
export function inProcessMentor(): MentorLink {
  const channel = new MessageChannel();
  Comlink.expose(createMentorApi(), channel.port1);
  return {
    endpoint: channel.port2,
    dispose() {
      channel.port1.close();
      channel.port2.close();
    },
  };
}

/** The mentor in a dedicated worker (browser). */
export function workerMentor(): MentorLink {
  const worker = new Worker(new URL('./mentor.worker.ts', import.meta.url), {
    type: 'module',
    name: 'mentor',
  });
  return { endpoint: worker, dispose: () => worker.terminate() };
}
