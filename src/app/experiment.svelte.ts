// The experiment on the page: its settings (mirrored in the URL, so a schedule replays), the two
// lanes training in lockstep, the base policy they start from and the run saved behind them. This
// module decides what each of the person's actions means for those parts together; charts read
// the lanes' plain arrays and redraw when `tick` moves (the speed setting decides how often).
import { shippedBase, type BasePolicy } from './base-checkpoint.ts';
import { levelAt } from '../rl/level-schedule.ts';
import { familyEntry } from '../tasks/index.ts';
import {
  CUSTOM_TASK,
  laneNames,
  type ExperimentConfig,
  type PageTask,
  type Hideable,
  type LaneMethod,
  type Speed,
  type TeachingPresetId,
} from './experiment-config.ts';
import { importCheckpointFile } from './checkpoint-import.ts';
import type { Lane } from './lane/lane.svelte.ts';
import { LaneExports } from './lane-exports.ts';
import { LlmMentor } from './llm-mentor.svelte.ts';
import type { LaneStart } from './lane/lane-client.ts';
import { LockstepLanes } from './lockstep-lanes.svelte.ts';
import { Notices } from './notices.svelte.ts';
import { TASK_CODE_PARAM, withTask } from './experiment-params.ts';
import { presetConfig } from './presets.ts';
import { RedrawClock } from './redraw-clock.svelte.ts';
import { RunPersistence, type ResumableRun } from './run-persistence.ts';
import { decodeUrl, encodeUrl } from './url-state.ts';
import { CustomMentor } from './custom-mentor.svelte.ts';
import { CustomTask } from './custom-task/custom-task.svelte.ts';
import { CustomTaskActions } from './custom-task/custom-task-actions.ts';
import { download } from './download.ts';
import {
  decodeSharedCode,
  MAX_CODE_LENGTH,
  sharedCodeLink,
  takeSharedCode,
  withSharedCode,
} from './shared-code.ts';

export class Experiment {
  config = $state<ExperimentConfig>(presetConfig('collapse'));
  /** What the lanes started from, as the import panel names it. */
  baseLabel = $state('');
  /** The lanes start from an imported checkpoint rather than the shipped base. */
  imported = $state(false);
  readonly notices = new Notices();
  /** The custom method's code: the editor's text and what the custom lanes run. */
  readonly custom = new CustomMentor();
  /** The custom task's code, its account and the base warmed up for it. */
  readonly customTask = new CustomTask();
  readonly customTaskActions = new CustomTaskActions(this.customTask, {
    notices: this.notices,
    config: () => this.config,
    startOnCustomTask: () => this.startOnCustomTask(),
    restartFromNewBase: async () => {
      this.base = null;
      await this.restart({ newRun: true });
    },
  });
  /** The encoded code of the link this page was opened with (see writeUrl). */
  private linkedCode: string | null = null;
  /** The same for a custom task's code. */
  private linkedTask: string | null = null;
  /** The opt-in LLM mentor (off until the person switches it on). */
  readonly llm: LlmMentor = new LlmMentor(
    () => this.lanes,
    () => this.config.backend,
    (message) => this.notices.notify('warning', message),
  );
  private readonly saved: RunPersistence = new RunPersistence({
    lanes: () => this.lanes,
    config: () => this.config,
    base: () => this.base,
    mentorCode: () => this.custom.applied,
    taskCode: () => (this.config.task === CUSTOM_TASK ? this.customTask.applied : null),
    registerSavedTask: (code, model) => this.customTaskActions.registerSaved(code, model),
    notices: this.notices,
  });
  readonly lockstep: LockstepLanes = new LockstepLanes({
    config: () => this.config,
    base: () => this.base?.bytes ?? null,
    mentorCode: () => this.custom.applied,
    notices: this.notices,
    llm: this.llm,
    redraw: (force) => this.redraw.request(force),
    saved: this.saved,
    scheduleChanged: () => {
      this.writeUrl();
      void this.saved.saveMeta();
    },
    customReport: (fault, message) => (this.custom.report = { fault, message }),
    customTask: () => {
      const { applied, info } = this.customTask;
      return applied !== null && info !== null
        ? { code: applied, info: $state.snapshot(info) }
        : null;
    },
  });
  readonly lanes: [Lane, Lane] = this.lockstep.lanes;
  readonly redraw = new RedrawClock(
    () => this.config.speed,
    () => this.lockstep.phase === 'running',
  );
  readonly exports = new LaneExports(
    () => $state.snapshot(this.config) as ExperimentConfig,
    this.lockstep,
    this.notices,
    () => this.custom.applied,
  );
  private base: BasePolicy | null = null;

  readonly names = $derived(laneNames(this.config.methods));
  readonly levels = $derived(familyEntry(this.config.task).family.levels);

  hidden(part: Hideable): boolean {
    return this.config.hide.includes(part);
  }

  /** Read the URL, restore a saved run when it is this experiment, load the base, start. */
  async boot(search: string): Promise<void> {
    const shared = takeSharedCode(search);
    if (
      shared.value !== null &&
      (await this.receiveLinked(shared.value, this.custom, 'custom mentor', 'Run this code'))
    )
      this.linkedCode = shared.value;
    const task = takeSharedCode(shared.search, TASK_CODE_PARAM);
    if (
      task.value !== null &&
      (await this.receiveLinked(task.value, this.customTask, 'custom task', 'Check this code'))
    )
      this.linkedTask = task.value;
    const decoded = decodeUrl(task.search);
    if (decoded.notices.length)
      this.notices.notify('warning', 'Some URL settings were changed:', undefined, decoded.notices);
    this.config = decoded.config;
    this.lockstep.level = levelAt(this.config.schedule, 0);
    this.writeUrl();
    await this.saved.open();
    const { run, found } = await this.saved.resumableFor(decoded);
    if (run) await this.resume(run);
    else await this.restart({ newRun: !found });
  }

  /**
   * Code from a link: into its editor, not run (a link is not the person's consent). Whether it
   * could be read.
   */
  private async receiveLinked(
    value: string,
    editor: CustomMentor | CustomTask,
    what: 'custom mentor' | 'custom task',
    button: string,
  ): Promise<boolean> {
    try {
      editor.receive(await decodeSharedCode(value), 'link');
    } catch (e) {
      this.notices.notify(
        'warning',
        `The link's ${what} code could not be read: ${(e as Error).message}.`,
      );
      return false;
    }
    this.notices.notify(
      'warning',
      `This link carries code for the ${what}. It is shown in the ${what}’s editor and does not run until you read it and press “${button}”.`,
    );
    return true;
  }

  private async resume(saved: ResumableRun): Promise<void> {
    const { step } = saved;
    // A link's task waits for the person's check: the saved run's task does not replace it.
    if (
      saved.config.task === CUSTOM_TASK &&
      (this.customTask.unseen !== null || !(await this.customTaskActions.resume(saved)))
    ) {
      await this.restart({ newRun: true });
      return;
    }
    this.config = saved.config;
    // Code this browser's person applied before (a saved run holds nothing else).
    if (saved.mentorCode !== null && this.custom.unseen === null) {
      this.custom.draft = saved.mentorCode;
      this.custom.applied = saved.mentorCode;
    }
    this.writeUrl();
    this.lanes.forEach((lane, i) => lane.restore(saved.metrics[i], step));
    if (saved.base) this.base = saved.base;
    // Steps after the checkpoint are run again: forget them in storage too.
    for (const lane of this.lanes) await this.saved.forgetSteps(lane.index, step);
    const ok = await this.restart({
      newRun: false,
      keepMetrics: true,
      from: saved.starts,
      startStep: step,
    });
    if (!ok) return;
    this.notices.notify(
      'info',
      step > 0
        ? `Restored the saved run (${saved.steps} steps); training resumes from the checkpoint at step ${step}${step < saved.steps ? ', and the steps after it run again' : ''}.`
        : 'Restored the saved run’s settings; it had no checkpoint yet, so training starts from step 0.',
      { label: 'Start over', run: () => void this.reset() },
    );
  }

  /**
   * Stop whatever runs, start both lanes afresh (from the base, or from `from` at `startStep`).
   * Returns whether both lanes are ready.
   */
  private async restart(opts: {
    newRun: boolean;
    keepMetrics?: boolean;
    from?: readonly [LaneStart, LaneStart];
    startStep?: number;
  }): Promise<boolean> {
    const startStep = opts.startStep ?? 0;
    const gen = this.lockstep.stop(startStep, opts.keepMetrics ?? false);
    let base: BasePolicy;
    try {
      base = this.base ??= await this.startingBase();
    } catch (e) {
      // A custom task waiting for its base says so in the status line and its panel: no fault.
      if (this.lockstep.isCurrent(gen)) {
        if (this.config.task === CUSTOM_TASK) this.lockstep.wait((e as Error).message);
        else this.lockstep.fail((e as Error).message);
      }
      return false;
    }
    if (!this.lockstep.isCurrent(gen)) return false;
    this.baseLabel = base.label;
    this.imported = base.imported;
    if (opts.newRun) this.saved.replaceSaved();
    const fromBase: LaneStart = { checkpoint: base.bytes, step: startStep };
    return this.lockstep.launch(gen, opts.from ?? [fromBase, fromBase]);
  }

  /** Back to step 0 from the base policy; recorded difficulty changes are forgotten. */
  async reset(): Promise<void> {
    this.config.schedule = [this.config.schedule[0]];
    this.writeUrl();
    await this.restart({ newRun: true });
  }

  /** Write the steps not saved yet (the page is being hidden or left). */
  flush(): Promise<void> {
    return this.saved.flush();
  }

  // ---------------------------------------------------------------- settings

  /** A setting that changes training: apply it and restart both lanes from the base. */
  private async reconfigure(
    change: (c: ExperimentConfig) => void,
    reloadBase: boolean,
  ): Promise<void> {
    const before = $state.snapshot(this.config) as ExperimentConfig;
    change(this.config);
    if (reloadBase) {
      try {
        this.base = await this.startingBase();
      } catch (e) {
        this.config = before;
        this.notices.notify('error', `${(e as Error).message}. The experiment was not changed.`);
        return;
      }
    }
    this.writeUrl();
    await this.restart({ newRun: true });
  }

  setMethod(lane: 0 | 1, method: LaneMethod): Promise<void> {
    return this.reconfigure((c) => {
      c.methods[lane] = method;
      c.schedule = [c.schedule[0]];
    }, false);
  }

  /** Run the editor's code in the custom lanes, from their next step (the person's consent). */
  applyCustomMentor(): void {
    this.lockstep.applyMentorCode(this.custom.apply());
    this.writeUrl();
    void this.saved.saveMeta();
  }

  /** Code from a file: into the editor, not run. */
  async loadCustomMentor(file: File): Promise<void> {
    if (file.size > MAX_CODE_LENGTH) {
      this.notices.notify('error', `${file.name} is ${file.size} bytes; a mentor is far smaller.`);
      return;
    }
    this.custom.receive(await file.text(), 'file');
  }

  downloadCustomMentor(): void {
    download('custom-mentor.js', this.custom.draft, 'text/javascript');
  }

  /** A link to this experiment with the editor's code in it. */
  customMentorLink(): Promise<string> {
    return sharedCodeLink(
      `${location.origin}${location.pathname}`,
      encodeUrl(this.config),
      this.custom.draft,
    );
  }

  /** A link to this experiment with the custom task's editor code in it. */
  customTaskLink(): Promise<string> {
    return sharedCodeLink(
      `${location.origin}${location.pathname}`,
      encodeUrl(this.config),
      this.customTask.draft,
      TASK_CODE_PARAM,
    );
  }

  /** What the lanes start from on this task: its shipped base, or the one warmed up for the custom task. */
  private async startingBase(): Promise<BasePolicy> {
    if (this.config.task === CUSTOM_TASK) {
      if (this.customTask.base) return this.customTask.base;
      throw new Error(
        this.customTask.applied === null
          ? 'Write or pick a task in the Custom task panel, check it, and warm a base up for it: the lanes start from that base'
          : 'Warm a base up for your task in the Custom task panel: the lanes start from it',
      );
    }
    return shippedBase(this.config.task, this.config.model);
  }

  setTask(task: PageTask): Promise<void> {
    if (task === this.config.task) return Promise.resolve();
    if (task === CUSTOM_TASK) return this.startOnCustomTask();
    return this.reconfigure((c) => Object.assign(c, withTask(c, task)), true);
  }

  /** No shipped base to load: the lanes wait, saying so, for a base warmed up in the panel. */
  private async startOnCustomTask(): Promise<void> {
    this.base = null;
    this.config = withTask(this.config, CUSTOM_TASK);
    this.writeUrl();
    await this.restart({ newRun: true });
  }

  applyPreset(id: TeachingPresetId): Promise<void> {
    const hide = this.config.hide;
    const { backend, threads } = this.config;
    return this.reconfigure((c) => {
      Object.assign(c, presetConfig(id), { hide, backend, threads });
    }, true);
  }

  /**
   * Seed, model, P, G, lr, eval, replay, backend: checked by the URL codec (clamped, with a
   * notice), then the run restarts.
   */
  setAdvanced(patch: Partial<ExperimentConfig>): Promise<void> {
    const current = $state.snapshot(this.config) as ExperimentConfig;
    const decoded = decodeUrl(encodeUrl({ ...current, ...patch, schedule: [current.schedule[0]] }));
    if (decoded.notices.length)
      this.notices.notify('warning', 'Some settings were changed:', undefined, decoded.notices);
    const next = decoded.config;
    const reload = next.model !== current.model || next.task !== current.task;
    return this.reconfigure((c) => Object.assign(c, next), reload);
  }

  setSpeed(speed: Speed): void {
    this.config.speed = speed;
    this.writeUrl();
    void this.saved.saveMeta();
    this.redraw.request(true);
  }

  private writeUrl(): void {
    // A link's code stays in the address until the person runs it: a reload shows it again.
    let search = encodeUrl(this.config);
    if (this.custom.unseen === 'link' && this.linkedCode)
      search = withSharedCode(search, this.linkedCode);
    if (this.customTask.unseen === 'link' && this.linkedTask)
      search = withSharedCode(search, this.linkedTask, TASK_CODE_PARAM);
    try {
      history.replaceState(history.state, '', `${search}${location.hash}`);
    } catch {
      // A sandboxed frame may refuse; the experiment goes on.
    }
  }

  // ---------------------------------------------------------------- base policy

  /** Check a checkpoint file completely; a good one restarts both lanes from it. */
  async importCheckpoint(file: File): Promise<boolean> {
    const result = await importCheckpointFile(file, {
      task: this.config.task,
      moduleId: this.config.task === CUSTOM_TASK ? (this.customTask.info?.moduleId ?? null) : null,
    });
    if (!result.ok) {
      this.notices.notify('error', result.notice);
      return false;
    }
    this.base = result.base;
    // On the custom task the panel's base and verdict are the import's, not the warm-up's before.
    if (result.task === null && this.config.task === CUSTOM_TASK)
      this.customTask.useBase(result.base, result.report);
    if (result.task && result.task !== this.config.task) {
      this.config = withTask(this.config, result.task);
    } else {
      this.config.schedule = [this.config.schedule[0]];
    }
    this.writeUrl();
    this.notices.notify(result.level, result.notice);
    await this.restart({ newRun: true });
    return true;
  }

  /** Go back to the shipped base after an import. */
  async useShippedBase(): Promise<void> {
    this.base = null;
    await this.reset();
  }

  dispose(): void {
    this.lockstep.dispose();
    this.saved.close();
  }
}
