// What the person's actions on the custom task mean: check the editor's code (their consent to run
// it), warm a base up for it, export that base, load or download code, and bring a saved run's
// task back. The experiment lends what these touch of it (its settings, its restart) as a host.
import type { ModelSize } from '../../model/config.ts';
import { etaSeconds } from '../../platform/eta.ts';
import { download } from '../download.ts';
import type { ExperimentConfig } from '../experiment-config.ts';
import type { Notices } from '../notices.svelte.ts';
import type { ResumableRun } from '../run-persistence.ts';
import { MAX_CODE_LENGTH } from '../shared-code.ts';
import type { CustomTask } from './custom-task.svelte.ts';
import { baseReportIn } from './base-report.ts';
import { registerCustomTask } from './page-task.ts';
import { checkTaskCode, warmUpTask } from './task-client.ts';

export interface CustomTaskHost {
  readonly notices: Notices;
  config(): ExperimentConfig;
  /** Moves the page to the custom task with a base still to load, then starts a new run. */
  startOnCustomTask(): Promise<void>;
  /** Starts a new run from a base loaded afresh (the one just warmed up). */
  restartFromNewBase(): Promise<void>;
}

export class CustomTaskActions {
  private cancelWarmup: (() => void) | null = null;

  constructor(
    private readonly task: CustomTask,
    private readonly host: CustomTaskHost,
  ) {}

  /**
   * Checks the editor's code in a worker: a task that passes becomes the custom task, the page
   * moves to it, and a base has to be warmed up for it.
   */
  async check(): Promise<void> {
    const t = this.task;
    if (t.checking || t.warmup) return;
    t.checking = true;
    t.fault = null;
    const code = t.draft;
    const result = await checkTaskCode(code, this.host.config().model);
    t.checking = false;
    if (!result.ok) {
      t.refuse(code, result.message);
      return;
    }
    t.accept(code, result.info);
    registerCustomTask(result.info);
    await this.host.startOnCustomTask();
  }

  /** Warms a base up for the checked task in a worker, then starts both lanes from it. */
  async warmUp(): Promise<void> {
    const t = this.task;
    const code = t.applied;
    const info = t.info;
    if (code === null || info === null || t.warmup || t.checking) return;
    const steps = Math.max(1, Math.round(t.warmupSteps));
    const { seed, model } = this.host.config();
    const started = performance.now();
    t.fault = null;
    t.warmup = { step: 0, steps, loss: NaN, phase: 'warm-up', etaS: null };
    const job = warmUpTask(code, { steps, seed, model, reportSize: 50, gateProblems: 200 }, (p) => {
      if (!t.warmup) return;
      const elapsed = (performance.now() - started) / 1000;
      t.warmup = {
        ...p,
        etaS: p.phase === 'report' ? null : etaSeconds(p.step, p.steps, elapsed),
      };
    });
    this.cancelWarmup = job.cancel;
    try {
      const warmed = await job.done;
      if (t.applied !== code) return;
      t.useBase(
        {
          bytes: warmed.bytes,
          label: `a base warmed up for ${info.moduleId} (${steps} steps)`,
          // Not shipped: a saved run keeps it as its starting policy.
          imported: true,
        },
        warmed,
      );
    } catch (e) {
      const message = (e as Error).message;
      t.fault = message === 'cancelled' ? 'Warm-up cancelled.' : `The warm-up failed: ${message}.`;
      return;
    } finally {
      t.warmup = null;
      this.cancelWarmup = null;
    }
    await this.host.restartFromNewBase();
  }

  cancel(): void {
    this.cancelWarmup?.();
  }

  /** The warmed base as a checkpoint file. */
  exportBase(): void {
    const { base, info } = this.task;
    if (base && info)
      download(
        `${info.moduleId}-base.safetensors`,
        base.bytes as BlobPart,
        'application/octet-stream',
      );
  }

  /** Task code from a file: into the editor, not run until the person checks it. */
  async load(file: File): Promise<void> {
    if (file.size > MAX_CODE_LENGTH) {
      this.host.notices.notify(
        'error',
        `${file.name} is ${file.size} bytes; a task module is far smaller.`,
      );
      return;
    }
    this.task.receive(await file.text(), 'file');
  }

  download(): void {
    download('custom-task.js', this.task.draft, 'text/javascript');
  }

  /**
   * A saved run's task code as the custom task, checked again, so that the run's settings read
   * with its levels; not while code from a link or file waits for the person's check.
   */
  async registerSaved(code: string, model: ModelSize): Promise<boolean> {
    if (this.task.unseen !== null) return false;
    const checked = await checkTaskCode(code, model);
    if (checked.ok) registerCustomTask(checked.info);
    return checked.ok;
  }

  /**
   * A saved run on the custom task: its code (the person's, checked in this browser before) is
   * checked again, and the base warmed up for it is the run's starting policy. False, with a
   * notice, where either is missing or the code no longer passes.
   */
  async resume(saved: ResumableRun): Promise<boolean> {
    const { taskCode: code, base } = saved;
    const refused = (why: string): false => {
      this.host.notices.notify(
        'warning',
        `The saved run on a custom task was not restored: ${why}. Check the task and warm a base up again.`,
      );
      if (code !== null) this.task.draft = code;
      return false;
    };
    if (code === null) return refused('its task code was not kept');
    if (base === null) return refused('the base warmed up for its task was not kept');
    const checked = await checkTaskCode(code, saved.config.model);
    if (!checked.ok) return refused(checked.message);
    this.task.draft = code;
    this.task.accept(code, checked.info);
    // The base's file carries its literacy table and gate: the verdict comes back with it.
    this.task.useBase(base, baseReportIn(base.bytes, checked.info.moduleId));
    registerCustomTask(checked.info);
    return true;
  }
}
