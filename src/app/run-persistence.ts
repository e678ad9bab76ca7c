// The run kept in the browser (IndexedDB, through RunStore) so that it survives a reload: steps as
// they come (written every few seconds and on pause), both lanes' checkpoints now and then, and on
// the next visit the point to resume from. A saved run that cannot be resumed is kept, and nothing
// is written until the person exports or discards it; steps that could not be written (a full
// disk) stay in memory and are written again; other storage failures are reported once, and the
// experiment goes on without saving.
import { checkpointConfig } from '../model/checkpoint.ts';
import type { ModelSize } from '../model/config.ts';
import { checkOptimizerState } from '../model/optimizer.ts';
import { paramSpecs } from '../model/param-spec.ts';
import { parseSafetensors } from '../model/safetensors.ts';
import type { StepMetrics } from '../rl/metrics.ts';
import { checkCounters } from '../rl/training-state.ts';
import type { BasePolicy } from './base-checkpoint.ts';
import { checkCheckpointBytes } from './checkpoint-client.ts';
import { download } from './download.ts';
import { CUSTOM_TASK, type ExperimentConfig } from './experiment-config.ts';
import type { LaneClient, LaneStart } from './lane/lane-client.ts';
import type { Lane } from './lane/lane.svelte.ts';
import type { Notices } from './notices.svelte.ts';
import { RunStore, SAVED_RUN_VERSION, type SavedCheckpoint, type SavedRun } from './run-store.ts';
import { savedRunFile } from './saved-run-file.ts';
import { decodeUrl, encodeUrl, sameExperiment, type DecodedUrl } from './url-state.ts';

const SAVE_INTERVAL_MS = 3000;

/** A saved run read back, and where its training resumes. */
export interface ResumableRun {
  config: ExperimentConfig;
  /** Steps both lanes had saved. */
  steps: number;
  /** Where both lanes resume: their checkpoints' step when they share one, else 0. */
  step: number;
  /** Where both lanes start at `step`; none when they start from the base at step 0. */
  starts?: [LaneStart, LaneStart];
  /** Each lane's saved steps before `step` (the ones after it run again). */
  metrics: [StepMetrics[], StepMetrics[]];
  /** The imported policy the run started from; null for the shipped base. */
  base: BasePolicy | null;
  /** The custom mentor's code the run was applied with; null for none. */
  mentorCode: string | null;
  /** The custom task's code the run trained on; null for none. */
  taskCode: string | null;
}

/** What the saved run is made of. */
export interface PersistedExperiment {
  lanes: () => readonly Pick<
    Lane,
    'index' | 'name' | 'unsaved' | 'nextStep' | 'client' | 'state'
  >[];
  config: () => ExperimentConfig;
  base: () => BasePolicy | null;
  /** The custom mentor's applied code (it travels with the run). */
  mentorCode: () => string | null;
  /** The custom task's checked code (it travels with the run, its base as the starting policy). */
  taskCode: () => string | null;
  /**
   * Makes a saved run's task code the custom task again (checked anew), so that its query reads
   * with that task's levels rather than the stand-in's; false where it may not or does not pass.
   */
  registerSavedTask: (code: string, model: ModelSize) => Promise<boolean>;
  notices: Notices;
}

/**
 * Where a saved run resumes, with `config` (its decoded URL query): every checkpoint is checked
 * as an import is (in a worker), and a lane's saved training state against its model. Throws,
 * saying why, when the run cannot be resumed.
 */
export async function resumePoint(run: SavedRun, config: ExperimentConfig): Promise<ResumableRun> {
  const steps = Math.min(...run.lanes.map((l) => (l.length ? l[l.length - 1].step + 1 : 0)));
  const base = run.checkpoints.find((c) => c.lane === -1);
  const [a, b] = [0, 1].map((i) => run.checkpoints.find((c) => c.lane === i));
  const step = a && b && a.step === b.step ? a.step : 0;
  for (const c of [base, ...(step > 0 ? [a, b] : [])]) {
    if (!c) continue;
    const r = await checkCheckpointBytes(c.bytes);
    if (!r.ok)
      throw new Error(
        `its ${c.lane < 0 ? 'starting policy' : `lane ${'AB'[c.lane]} checkpoint`}: ${r.message}`,
      );
  }
  return {
    config,
    steps,
    step,
    starts: step > 0 && a && b ? [laneStart(a), laneStart(b)] : undefined,
    metrics: [0, 1].map((i) =>
      run.lanes[i].filter((m) => m.step < step),
    ) as ResumableRun['metrics'],
    base: base ? { bytes: base.bytes, label: run.meta.base, imported: true } : null,
    mentorCode: run.meta.mentorCode,
    taskCode: run.meta.taskCode,
  };
}

/** A lane's start from a checked checkpoint: with its training state when one was saved. */
function laneStart(c: SavedCheckpoint): LaneStart {
  if (!c.state) return { checkpoint: c.bytes, step: c.step };
  const { tensors, metadata } = parseSafetensors(c.bytes);
  const model = checkpointConfig(metadata);
  const counters = checkCounters(c.state.counters);
  if (counters.step !== c.step)
    throw new Error(`lane ${'AB'[c.lane]}: its state is of step ${counters.step}, not ${c.step}`);
  checkOptimizerState(paramSpecs(model), c.state.optimizer);
  return { state: { ...c.state, model, weights: tensors } };
}

export class RunPersistence {
  private store: RunStore | null = null;
  private failed = false;
  /** The saved run is replaced by this one at its first save (not before: a reload may want it). */
  private needsBegin = false;
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Why the saved run could not be resumed: it is kept, and nothing is written, until dealt with. */
  private held: string | null = null;
  /** Steps could not be written (storage full): said once, until a write works again. */
  private behind = false;

  constructor(private readonly experiment: PersistedExperiment) {}

  /** Open the store; new steps are written every few seconds from now on. */
  async open(): Promise<void> {
    this.timer = setInterval(() => void this.flush(), SAVE_INTERVAL_MS);
    try {
      this.store = await RunStore.open();
    } catch (e) {
      this.storageFailed(e);
    }
  }

  /**
   * The saved run, when there is one with steps that can be resumed. One that cannot (a newer or
   * damaged format, a URL that no longer decodes as it was, a checkpoint that fails its check) is
   * kept and offered for export or discarding; `found` says whether there was any.
   */
  private async load(): Promise<{ run: ResumableRun | null; found: boolean }> {
    if (!this.store) return { run: null, found: false };
    const { notices } = this.experiment;
    let loaded;
    try {
      loaded = await this.store.load();
    } catch (e) {
      this.storageFailed(e);
      return { run: null, found: false };
    }
    if (loaded.kind === 'none') return { run: null, found: false };
    if (loaded.kind === 'unreadable') {
      this.hold(loaded.reason);
      return { run: null, found: true };
    }
    const { run, dropped, migratedFrom } = loaded;
    if (migratedFrom !== null)
      notices.notify(
        'info',
        `The saved run was written in format ${migratedFrom}; it was migrated to format ${SAVED_RUN_VERSION}.`,
      );
    if (dropped)
      notices.notify(
        'warning',
        `The saved run had ${dropped} unreadable steps or checkpoints; they were dropped.`,
      );
    if (!run.lanes.some((l) => l.length)) return { run: null, found: false };
    const d = await this.decodeSaved(run.meta);
    if (d.notices.length) {
      this.hold(`its settings no longer read as they were saved (${d.notices.join('; ')})`);
      return { run: null, found: true };
    }
    try {
      return { run: await resumePoint(run, d.config), found: true };
    } catch (e) {
      this.hold((e as Error).message);
      return { run: null, found: true };
    }
  }

  /**
   * The saved run's query. A custom task's levels are its code's: until that code is checked the
   * page knows only a stand-in's, which a schedule beyond them does not fit.
   */
  private async decodeSaved(meta: SavedRun['meta']): Promise<DecodedUrl> {
    const d = decodeUrl(meta.query);
    if (d.notices.length === 0 || d.config.task !== CUSTOM_TASK || meta.taskCode === null) return d;
    return (await this.experiment.registerSavedTask(meta.taskCode, d.config.model))
      ? decodeUrl(meta.query)
      : d;
  }

  /** Keep a saved run that cannot be resumed; the person exports or discards it. */
  private hold(reason: string): void {
    this.held = reason;
    this.experiment.notices.notify(
      'warning',
      `A saved run could not be resumed: ${reason}. It is kept as it is, and this run is not saved until you export or discard it.`,
      [
        { label: 'Export the saved run', run: () => void this.exportHeld() },
        { label: 'Discard it', run: () => void this.discardHeld() },
      ],
    );
  }

  private async exportHeld(): Promise<void> {
    const { notices } = this.experiment;
    try {
      const raw = await this.store?.raw();
      if (raw)
        download(`mentor-saved-run-${Date.now()}.json`, savedRunFile(raw), 'application/json');
    } catch (e) {
      notices.notify('error', `Could not export the saved run: ${(e as Error).message}`);
    }
    notices.notify('info', 'The saved run is still kept; discard it to save this run instead.', {
      label: 'Discard it',
      run: () => void this.discardHeld(),
    });
  }

  private async discardHeld(): Promise<void> {
    if (this.held === null) return;
    this.held = null;
    await this.guard(() => this.store?.clear());
    this.replaceSaved();
    await this.flush();
    this.experiment.notices.notify(
      'info',
      'The saved run was discarded; this run is saved from now on.',
    );
  }

  /**
   * The saved run to resume on a page opened with `url`: the saved one when the URL names no
   * experiment or the same one (the URL's view settings then win). A saved run of another
   * experiment is offered in a notice instead; `found` says whether there was one at all.
   */
  async resumableFor(url: DecodedUrl): Promise<{ run: ResumableRun | null; found: boolean }> {
    const { run: saved, found } = await this.load();
    if (!saved) return { run: null, found };
    if (!url.explicit || sameExperiment(saved.config, url.config)) {
      if (url.explicit) {
        saved.config.speed = url.config.speed;
        saved.config.hide = url.config.hide;
        saved.config.backend = url.config.backend;
      }
      return { run: saved, found: true };
    }
    const query = encodeUrl(saved.config);
    this.experiment.notices.notify(
      'info',
      `A saved run (${saved.config.task}, ${saved.steps} steps) was not restored: this URL describes another experiment. Training here replaces it.`,
      { label: 'Open the saved run', run: () => location.assign(`${location.pathname}${query}`) },
    );
    return { run: null, found: true };
  }

  /** This run replaces the saved one at its first save. */
  replaceSaved(): void {
    this.needsBegin = true;
  }

  /** Drop a lane's saved steps from `fromStep` on. */
  forgetSteps(lane: number, fromStep: number): Promise<void> {
    return this.guard(() => this.store?.truncate(lane, fromStep));
  }

  saveMeta(): Promise<void> {
    if (this.needsBegin) return Promise.resolve();
    return this.guard(() => this.store?.saveMeta(this.meta()));
  }

  /**
   * Write the steps not yet saved. Steps that cannot be written stay in memory, to be written at
   * the next flush; a full disk is said once, with the steps that wait.
   */
  async flush(): Promise<void> {
    const lanes = this.experiment.lanes();
    if (!this.store || this.held !== null || lanes.every((l) => !l.unsaved.length)) return;
    await this.beginRun();
    for (const lane of lanes) {
      if (!lane.unsaved.length || !this.store) continue;
      const batch = lane.unsaved;
      lane.unsaved = [];
      try {
        await this.store.appendSteps(lane.index, batch);
      } catch (e) {
        lane.unsaved = [...batch, ...lane.unsaved];
        if (isQuotaError(e)) this.fellBehind(e);
        else this.storageFailed(e);
        return;
      }
    }
    if (this.behind) {
      this.behind = false;
      this.experiment.notices.notify('info', 'Saving works again: every step so far is saved.');
    }
  }

  /** The browser's storage is full: say which steps wait in memory (once until it works again). */
  private fellBehind(e: unknown): void {
    if (this.behind) return;
    this.behind = true;
    const waiting = this.experiment
      .lanes()
      .filter((l) => l.unsaved.length)
      .map((l) => `${l.name} steps ${l.unsaved[0].step}–${l.unsaved[l.unsaved.length - 1].step}`);
    const what = waiting.length
      ? `${waiting.join(', ')} are not saved yet. They are kept in memory and saving is tried again every ${SAVE_INTERVAL_MS / 1000} s`
      : 'the latest checkpoints are not saved; the next ones are tried as they come';
    this.experiment.notices.notify(
      'warning',
      `The browser's storage is full (${String((e as Error)?.message ?? e)}): ${what}; export the run to be sure to keep it.`,
    );
  }

  /** Both lanes' checkpoints at `step` (skipped unless both stand there, past step 0). */
  async saveCheckpoints(step: number, isCurrent: () => boolean): Promise<void> {
    const { notices } = this.experiment;
    const lanes = this.experiment.lanes();
    if (!this.store || this.held !== null || lanes.some((l) => !l.client)) return;
    if (step === 0 || lanes.some((l) => l.nextStep !== step)) return;
    try {
      const bytes = await Promise.all(
        lanes.map((l) => (l.client as LaneClient).exportCheckpoint()),
      );
      if (!isCurrent()) return;
      await this.flush();
      await this.guard(async () => {
        await this.store?.saveCheckpoints(
          bytes.map((b, i) => ({ lane: i, step, bytes: b, state: savedState(lanes[i], step) })),
        );
        await this.store?.saveMeta(this.meta());
      });
    } catch (e) {
      notices.notify('warning', `Could not save a checkpoint: ${(e as Error).message}`);
    }
  }

  /** Stop saving: what is not saved yet is written, then the store is closed. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    void this.flush();
    this.store?.close();
  }

  private meta() {
    return {
      version: SAVED_RUN_VERSION,
      query: encodeUrl(this.experiment.config()),
      savedAt: Date.now(),
      base: this.experiment.base()?.label ?? '',
      mentorCode: this.experiment.mentorCode(),
      taskCode: this.experiment.taskCode(),
    };
  }

  private async beginRun(): Promise<void> {
    if (!this.needsBegin) return;
    this.needsBegin = false;
    await this.guard(async () => {
      await this.store?.begin(this.meta());
      const base = this.experiment.base();
      if (base?.imported)
        await this.store?.saveCheckpoints([{ lane: -1, step: 0, bytes: base.bytes, state: null }]);
    });
  }

  private async guard(job: () => Promise<void> | undefined): Promise<void> {
    if (!this.store || this.held !== null) return;
    try {
      await job();
    } catch (e) {
      // A full disk is passing: what was not written (a checkpoint) is written next time.
      if (isQuotaError(e)) this.fellBehind(e);
      else this.storageFailed(e);
    }
  }

  private storageFailed(e: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.store = null;
    this.experiment.notices.notify(
      'warning',
      `This run cannot be saved in the browser (${String((e as Error)?.message ?? e)}); it will not survive a reload. Export it to keep it.`,
    );
  }
}

/** A lane's training state at `step`, less its weights (the checkpoint holds them); null without one. */
function savedState(lane: Pick<Lane, 'state'>, step: number): SavedCheckpoint['state'] {
  const s = lane.state;
  if (!s || s.counters.step !== step) return null;
  const { model: _model, weights: _weights, ...rest } = s;
  return rest;
}

function isQuotaError(e: unknown): boolean {
  const name = (e as { name?: unknown } | null)?.name;
  return name === 'QuotaExceededError' || /quota/i.test(String((e as Error)?.message ?? ''));
}
