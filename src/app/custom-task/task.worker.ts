// The person's task, off the page: its code imported from a blob: URL in this worker (which
// inherits the page's Content-Security-Policy), checked at every level, and a base warmed up for
// it with its literacy table and gate. The page starts one worker per job and ends it after, so
// a `sample` that never returns is stopped by the page's deadline or the person's Cancel.
import * as Comlink from 'comlink';
import { CpuBackend } from '../../engine/cpu/cpu-backend.ts';
import { DEFAULT_INSTRUCTOR } from '../../interventions/mentor/instructor.ts';
import { saveCheckpoint } from '../../model/checkpoint.ts';
import type { ModelSize } from '../../model/config.ts';
import { gateChance, type GateChance } from '../../rl/bases/gate-chance.ts';
import { literacyLevels, literacyReport, type LiteracyRow } from '../../rl/bases/literacy.ts';
import { genericRecipe } from '../../rl/bases/recipes.ts';
import { DEFAULT_GRPO } from '../../rl/config.ts';
import { freshPolicy, runWarmup, type WarmupProgress } from '../../rl/warmup.ts';
import { errorMessage } from '../../tasks/custom/task-check.ts';
import type { TaskInfo } from '../../tasks/custom/task-info.ts';
import { BASE_REPORT_KEY, baseReportText } from './base-report.ts';
import { loadTaskCode } from './load-task-code.ts';
import { CUSTOM_TASK_ID } from './page-task.ts';

export type TaskCheckResult = { ok: true; info: TaskInfo } | { ok: false; message: string };

export interface WarmupOptions {
  steps: number;
  seed: number;
  model: ModelSize;
  /** Problems per cell of the literacy table, and for the gate. */
  reportSize: number;
  gateProblems: number;
}

export interface WarmedBase {
  bytes: Uint8Array;
  literacy: LiteracyRow[];
  gate: GateChance;
  finalLoss: number;
}

const api = {
  async check(
    code: string,
    model: ModelSize,
    onLevel: (level: number) => void,
  ): Promise<TaskCheckResult> {
    try {
      return { ok: true, info: (await loadTaskCode(code, model, onLevel)).info };
    } catch (e) {
      return { ok: false, message: errorMessage(e) };
    }
  },

  async warmup(
    code: string,
    o: WarmupOptions,
    onProgress: (p: WarmupProgress & { phase: 'warm-up' | 'report' }) => void,
  ): Promise<WarmedBase> {
    const { entry, info } = await loadTaskCode(code, o.model);
    const recipe = { ...genericRecipe(entry.family.levels, entry.collapse), steps: o.steps };
    const model = freshPolicy(new CpuBackend(), o.model, o.seed, recipe.policy);
    let finalLoss = NaN;
    await runWarmup(model, entry.training, { ...recipe, seed: o.seed }, (p) => {
      finalLoss = p.loss;
      onProgress({ ...p, phase: 'warm-up' });
    });
    onProgress({
      step: o.steps,
      steps: o.steps,
      loss: finalLoss,
      lr: 0,
      answerChars: 0,
      referenceChars: 0,
      phase: 'report',
    });
    const { hard } = entry.collapse;
    const levels = literacyLevels(entry.training, hard);
    const literacy = await literacyReport(
      model,
      entry.training,
      levels,
      o.reportSize,
      DEFAULT_INSTRUCTOR.maxReveal,
    );
    const gate = await gateChance(model, entry.training, hard, o.gateProblems, DEFAULT_GRPO);
    const bytes = await saveCheckpoint(model, {
      task: CUSTOM_TASK_ID,
      task_module: info.moduleId,
      model: o.model,
      seed: String(o.seed),
      recipe: JSON.stringify(recipe),
      [BASE_REPORT_KEY]: baseReportText({ literacy, gate }),
    });
    return Comlink.transfer({ bytes, literacy, gate, finalLoss }, [bytes.buffer as ArrayBuffer]);
  },
};

export type TaskWorkerApi = typeof api;
Comlink.expose(api);
