import * as Comlink from 'comlink';
import type { Intervention, Reprompt, ScoredBatch, TrainContext } from '../../rl/intervention.ts';
import type { LlmDtype } from '../mentor/llm/runtime.ts';
import { MentorIntervention } from '../mentor/mentor.ts';
import { createIntervention, type HostedMethod } from '../methods.ts';

/** Which language model joins the mentor team, from where. Plain data: it crosses workers. */
export interface LlmSpec {
  modelId: string;
  /** Local: files under modelRoot only (fixtures, our own site); hub: the person opted in. */
  source: { local: true; modelRoot: string } | { local: false };
  device?: 'wasm' | 'webgpu' | 'cpu';
  /** The weight file to fetch (`q4` → `onnx/model_q4.onnx`); default: the model's config. */
  dtype?: LlmDtype;
}

export type LlmProgress = (loaded: number, total: number) => void;

export type LlmEnabled = { ok: true; modelId: string } | { ok: false; message: string };

/** What the mentor worker exposes over Comlink. Arguments and results are plain data. */
export interface MentorApi {
  configure(method: HostedMethod, seed: number): void;
  plan(batch: ScoredBatch, ctx: TrainContext): Promise<Reprompt[]>;
  observe(retry: ScoredBatch, ctx: TrainContext): Promise<void>;
  stats(): Promise<Record<string, number>>;
  /** The method's state for a snapshot (null when it keeps none), and back. */
  saveState(): Promise<unknown>;
  restoreState(state: unknown): Promise<void>;
  /**
   * Load a language model into the mentor team (mentor method only), in place of any it had.
   * Loading is lazy: nothing of Transformers.js is fetched until this is called. A missing or
   * corrupt model gives a clear message and the mentor keeps working on rules.
   */
  enableLlm(spec: LlmSpec, onProgress?: LlmProgress): Promise<LlmEnabled>;
  disableLlm(): Promise<void>;
}

export function createMentorApi(): MentorApi {
  let current: Intervention | null = null;
  /** Moves on every enable and disable: a load that finishes after a newer call is dropped. */
  let llmTurn = 0;
  const need = () => {
    if (!current) throw new Error('mentor worker: configure() first');
    return current;
  };
  return {
    configure(method, seed) {
      current = createIntervention(method, seed);
    },
    plan: (batch, ctx) => need().plan(batch, ctx),
    async observe(retry, ctx) {
      await need().observe?.(retry, ctx);
    },
    async stats() {
      return (await need().stats?.()) ?? {};
    },
    async saveState() {
      return (await need().saveState?.()) ?? null;
    },
    async restoreState(state) {
      await need().restoreState?.(state);
    },
    async enableLlm(spec, onProgress) {
      const mentor = need();
      if (!(mentor instanceof MentorIntervention)) {
        return {
          ok: false,
          message: `the ${mentor.name} method has no mentor team for a language model to join`,
        };
      }
      // Off first: a failed switch leaves the rules, never a model nobody asked for any more.
      const turn = ++llmTurn;
      const previous = mentor.advisor;
      mentor.advisor = null;
      try {
        await previous?.dispose();
        const [{ loadTextGenerator }, { LlmAdvisor }] = await Promise.all([
          import('../mentor/llm/runtime.ts'),
          import('../mentor/llm/agent.ts'),
        ]);
        const generator = await loadTextGenerator(spec.modelId, {
          ...spec.source,
          device: spec.device,
          dtype: spec.dtype,
          onProgress,
        });
        if (turn !== llmTurn || current !== mentor) {
          await generator.dispose();
          return {
            ok: false,
            message: `loading language model "${spec.modelId}" was overtaken (switched off, or another model asked for)`,
          };
        }
        mentor.advisor = new LlmAdvisor(generator);
        return { ok: true, modelId: spec.modelId };
      } catch (e) {
        return {
          ok: false,
          message: `${(e as Error).message} — the mentor goes on with its rules`,
        };
      } finally {
        releaseIfProxy(onProgress);
      }
    },
    async disableLlm() {
      llmTurn++;
      const mentor = need();
      if (mentor instanceof MentorIntervention) {
        await mentor.advisor?.dispose();
        mentor.advisor = null;
      }
    },
  };
}

/** A callback that came over Comlink holds a port open until released; a plain one holds nothing. */
export function releaseIfProxy(f: unknown): void {
  if (typeof f !== 'function') return;
  const release = (f as { [Comlink.releaseProxy]?: unknown })[Comlink.releaseProxy];
  if (typeof release === 'function') (release as () => void)();
}
