// The run kept in the browser (IndexedDB, through RunStore) so that it survives a reload: steps as
// they come (written every few seconds and on pause), both lanes' checkpoints now and then, and on
// the next visit the point to resume from. Storage that fails is reported once, then left alone:
// the experiment goes on without it.
import type { StepMetrics } from '../rl/metrics.ts';
import type { BasePolicy } from './base-checkpoint.ts';
import type { ExperimentConfig } from './experiment-config.ts';
import type { LaneClient } from './lane/lane-client.ts';
import type { Lane } from './lane/lane.svelte.ts';
import type { Notices } from './notices.svelte.ts';
import { RunStore, type SavedRun } from './run-store.ts';
import { decodeUrl, encodeUrl, sameExperiment, type DecodedUrl } from './url-state.ts';

const SAVE_INTERVAL_MS = 3000;

/** A saved run read back, and where its training resumes. */
export interface ResumableRun {
  config: ExperimentConfig;
  /** Steps both lanes had saved. */
  steps: number;
  /** Where both lanes resume: their checkpoints' step when they share one, else 0. */
  step: number;
  /** Both lanes' checkpoints at `step`; none when they start from the base at step 0. */
  checkpoints?: [Uint8Array, Uint8Array];
  /** Each lane's saved steps before `step` (the ones after it run again). */
  metrics: [StepMetrics[], StepMetrics[]];
  /** The imported policy the run started from; null for the shipped base. */
  base: BasePolicy | null;
}

/** What the saved run is made of. */
export interface PersistedExperiment {
  lanes: () => readonly Lane[];
  config: () => ExperimentConfig;
  base: () => BasePolicy | null;
  notices: Notices;
}

/** Where a saved run resumes, with `config` (its decoded URL query). */
export function resumePoint(run: SavedRun, config: ExperimentConfig): ResumableRun {
  const steps = Math.min(...run.lanes.map((l) => (l.length ? l[l.length - 1].step + 1 : 0)));
  const base = run.checkpoints.find((c) => c.lane === -1);
  const [a, b] = [0, 1].map((i) => run.checkpoints.find((c) => c.lane === i));
  const step = a && b && a.step === b.step ? a.step : 0;
  return {
    config,
    steps,
    step,
    checkpoints: step > 0 && a && b ? [a.bytes, b.bytes] : undefined,
    metrics: [0, 1].map((i) =>
      run.lanes[i].filter((m) => m.step < step),
    ) as ResumableRun['metrics'],
    base: base ? { bytes: base.bytes, label: run.meta.base, imported: true } : null,
  };
}

export class RunPersistence {
  private store: RunStore | null = null;
  private failed = false;
  /** The saved run is replaced by this one at its first save (not before: a reload may want it). */
  private needsBegin = false;
  private timer: ReturnType<typeof setInterval> | null = null;

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

  /** The saved run, when there is one with steps and its query still decodes cleanly. */
  private async load(): Promise<ResumableRun | null> {
    if (!this.store) return null;
    try {
      const r = await this.store.load();
      if (!r) return null;
      const { run, dropped } = r;
      if (dropped)
        this.experiment.notices.notify(
          'warning',
          `The saved run had ${dropped} unreadable steps; they were dropped.`,
        );
      if (!run.lanes.some((l) => l.length)) return null;
      const d = decodeUrl(run.meta.query);
      if (d.notices.length) return null;
      return resumePoint(run, d.config);
    } catch (e) {
      this.storageFailed(e);
      return null;
    }
  }

  /**
   * The saved run to resume on a page opened with `url`: the saved one when the URL names no
   * experiment or the same one (the URL's view settings then win). A saved run of another
   * experiment is offered in a notice instead; `found` says whether there was one at all.
   */
  async resumableFor(url: DecodedUrl): Promise<{ run: ResumableRun | null; found: boolean }> {
    const saved = await this.load();
    if (!saved) return { run: null, found: false };
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

  /** Write the steps not yet saved. */
  async flush(): Promise<void> {
    const lanes = this.experiment.lanes();
    if (!this.store || lanes.every((l) => !l.unsaved.length)) return;
    await this.beginRun();
    for (const lane of lanes) {
      if (!lane.unsaved.length) continue;
      const batch = lane.unsaved;
      lane.unsaved = [];
      await this.guard(() => this.store?.appendSteps(lane.index, batch));
    }
  }

  /** Both lanes' checkpoints at `step` (skipped unless both stand there, past step 0). */
  async saveCheckpoints(step: number, isCurrent: () => boolean): Promise<void> {
    const { notices } = this.experiment;
    const lanes = this.experiment.lanes();
    if (!this.store || lanes.some((l) => !l.client)) return;
    if (step === 0 || lanes.some((l) => l.nextStep !== step)) return;
    try {
      const bytes = await Promise.all(
        lanes.map((l) => (l.client as LaneClient).exportCheckpoint()),
      );
      if (!isCurrent()) return;
      await this.flush();
      await this.guard(async () => {
        await this.store?.saveCheckpoints(bytes.map((b, i) => ({ lane: i, step, bytes: b })));
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
      version: 1 as const,
      query: encodeUrl(this.experiment.config()),
      savedAt: Date.now(),
      base: this.experiment.base()?.label ?? '',
    };
  }

  private async beginRun(): Promise<void> {
    if (!this.needsBegin) return;
    this.needsBegin = false;
    await this.guard(async () => {
      await this.store?.begin(this.meta());
      const base = this.experiment.base();
      if (base?.imported)
        await this.store?.saveCheckpoints([{ lane: -1, step: 0, bytes: base.bytes }]);
    });
  }

  private async guard(job: () => Promise<void> | undefined): Promise<void> {
    if (!this.store) return;
    try {
      await job();
    } catch (e) {
      this.storageFailed(e);
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
