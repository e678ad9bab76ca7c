import * as Comlink from 'comlink';
import type { Intervention, Reprompt, ScoredBatch, TrainContext } from '../../rl/intervention.ts';
import type { LlmDtype } from '../mentor/llm/runtime.ts';
import { MentorIntervention } from '../mentor/mentor.ts';
import { createIntervention, type HostedMethod } from '../methods.ts';
import { importFromBlob, type ImportCode } from '../../platform/import-from-blob.ts';
import { loadCustomCode } from './custom-code.ts';
import type { LoadFault } from './find-intervention.ts';
import { CUSTOM_TASK_ID, describedEntry, type TaskInfo } from '../../tasks/custom/task-info.ts';
import type { FamilyEntry } from '../../tasks/family-entry.ts';
import { registerFamily } from '../../tasks/registry.ts';

/**
 * What a mentor worker runs: a built-in method, or the person's code (the page's custom method;
 * `code: null` while none is applied: it gives no help). `task` is the family's id, for a factory.
 */
export type MentorSpec = HostedMethod | { code: string | null; task: string };

/** How configure() went: the intervention's name, or why the person's code cannot be used. */
export type MentorLoaded =
  { ok: true; name: string | null } | { ok: false; fault: LoadFault; message: string };

/** The person's code gives no help: none applied yet, or it cannot be used. */
const noHelp: Intervention = {
  name: 'custom',
  async plan() {
    return [];
  },
};

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
  /**
   * `task`: the account of the page's custom task, where the lane trains on one: the mentor reads
   * its family (levels, alphabet, hints) from it; its code never runs here.
   */
  configure(spec: MentorSpec, seed: number, task?: TaskInfo | null): Promise<MentorLoaded>;
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

/** `importCode`: how the person's code becomes a module (a blob: URL in the browser). */
export function createMentorApi(importCode: ImportCode = importFromBlob): MentorApi {
  let current: Intervention | null = null;
  /** Moves on every enable and disable: a load that finishes after a newer call is dropped. */
  let llmTurn = 0;
  /** The person's code may take a while to load: calls wait for the latest configure(). */
  let configuring: Promise<unknown> = Promise.resolve();
  const need = async () => {
    await configuring;
    if (!current) throw new Error('mentor worker: configure() first');
    return current;
  };
  return {
    configure(spec, seed, task = null) {
      if (task) registerFamily(describedEntry(task, CUSTOM_TASK_ID) as unknown as FamilyEntry);
      if (typeof spec === 'string') {
        current = createIntervention(spec, seed);
        return Promise.resolve({ ok: true, name: spec });
      }
      current = noHelp;
      const code = spec.code;
      if (code === null) return Promise.resolve({ ok: true, name: null });
      const loading = (async (): Promise<MentorLoaded> => {
        const loaded = await loadCustomCode(code, { seed, task: spec.task }, importCode);
        if (!loaded.ok) return loaded;
        current = loaded.intervention;
        return { ok: true, name: loaded.name };
      })();
      configuring = loading;
      return loading;
    },
    plan: async (batch, ctx) => (await need()).plan(batch, ctx),
    async observe(retry, ctx) {
      await (await need()).observe?.(retry, ctx);
    },
    async stats() {
      return (await (await need()).stats?.()) ?? {};
    },
    async saveState() {
      return (await (await need()).saveState?.()) ?? null;
    },
    async restoreState(state) {
      await (await need()).restoreState?.(state);
    },
    async enableLlm(spec, onProgress) {
      const mentor = await need();
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
      const mentor = await need();
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
