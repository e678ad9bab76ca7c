// The experiment on the page: two lanes (each a worker with its own trainer) driven in lockstep
// — both run step n, then both run step n+1 — so they always compare at the same step, a
// difficulty change lands on both at the same step, and the schedule in the URL replays it.
// Charts read plain arrays; `tick` says when to redraw (the speed setting decides how often).
import type { InterventionRecord, StepMetrics } from '../rl/metrics.ts';
import type { RolloutGroup } from '../rl/trainer.ts';
import { fetchBaseCheckpoint } from './base-checkpoint.ts';
import { checkCheckpointBytes, type CheckResult } from './checkpoint-client.ts';
import { download } from './download.ts';
import {
  laneNames,
  levelAt,
  levelRange,
  withLevelChange,
  type ExperimentConfig,
  type FamilyId,
  type Hideable,
  type Method,
  type Speed,
  type TeachingPresetId,
} from './experiment-config.ts';
import { exportName, metricsCsv, metricsJson } from './export.ts';
import { LaneClient } from './lane/lane-client.ts';
import { LlmMentor } from './llm-mentor.svelte.ts';
import type { LaneConfig, LaneEvent, LaneInfo } from './lane/lane-types.ts';
import { presetConfig, startSchedule } from './presets.ts';
import { RunStore, type SavedCheckpoint } from './run-store.ts';
import { decodeUrl, encodeUrl, sameExperiment } from './url-state.ts';

export type Phase = 'loading' | 'ready' | 'running' | 'error';
export type NoticeLevel = 'info' | 'warning' | 'error';

export interface Notice {
  id: number;
  level: NoticeLevel;
  message: string;
  /** Items listed under the message (e.g. each URL value that was changed). */
  details?: string[];
  action?: { label: string; run: () => void };
}

/** What the backend badge shows: the same shape the self-check worker reports. */
export interface BadgeInfo {
  kind: 'cpu' | 'webgpu';
  name: string;
  fallbackReason: string | null;
}

export const LOG_CAP = 500;
/** Checkpoints of both lanes go to IndexedDB every this many steps (and on pause). */
export const CHECKPOINT_EVERY = 20;
const SNAPSHOT_EVERY = 10;
const PLAN_DEADLINE_MS = 10_000;
const SAVE_INTERVAL_MS = 3000;
const FAST_REDRAW_MS = 1000;
const MAX_NOTICES = 8;
const MAX_CHECKPOINT_BYTES = 64 * 1024 * 1024;

interface Base {
  bytes: Uint8Array;
  label: string;
  imported: boolean;
}

export class Lane {
  readonly index: 0 | 1;
  readonly letter: 'A' | 'B';
  name = $state('');
  method = $state<Method>('none');
  info = $state<LaneInfo | null>(null);
  error = $state<string | null>(null);
  /** Latest trainer event (e.g. the mentor missed its deadline), for the lane panel. */
  lastEvent = $state<string | null>(null);
  /** Plain arrays: the charts read them when `tick` moves. */
  metrics: StepMetrics[] = [];
  unsaved: StepMetrics[] = [];
  nextStep = 0;
  client: LaneClient | null = null;

  constructor(index: 0 | 1) {
    this.index = index;
    this.letter = index === 0 ? 'A' : 'B';
  }

  /** Add a step; a step the lane already had (it rewound after device loss) replaces the rest. */
  record(m: StepMetrics): boolean {
    let rewound = false;
    if (m.step < this.nextStep) {
      this.truncate(m.step);
      rewound = true;
    }
    this.metrics.push(m);
    this.unsaved.push(m);
    this.nextStep = m.step + 1;
    if (m.events.length) this.lastEvent = `step ${m.step}: ${m.events[m.events.length - 1]}`;
    return rewound;
  }

  truncate(fromStep: number): void {
    this.metrics = this.metrics.filter((x) => x.step < fromStep);
    this.unsaved = this.unsaved.filter((x) => x.step < fromStep);
    this.nextStep = fromStep;
  }

  /** The mentor log: newest first, at most LOG_CAP records. */
  log(cap = LOG_CAP): InterventionRecord[] {
    const out: InterventionRecord[] = [];
    for (let i = this.metrics.length - 1; i >= 0 && out.length < cap; i--) {
      const list = this.metrics[i].interventions;
      for (let j = list.length - 1; j >= 0 && out.length < cap; j--) out.push(list[j]);
    }
    return out;
  }

  interventionCount(): number {
    let n = 0;
    for (const m of this.metrics) n += m.interventions.length;
    return n;
  }
}

export class Experiment {
  config = $state<ExperimentConfig>(presetConfig('collapse'));
  phase = $state<Phase>('loading');
  /** Why the lanes cannot train (phase 'error'). */
  problem = $state<string | null>(null);
  /** A single step or a level change is being applied. */
  busy = $state(false);
  /** The difficulty the slider shows: the level of the next step. */
  level = $state(3);
  /** Steps both lanes have done. */
  step = $state(0);
  /** Moves when charts, logs and readouts should redraw. */
  tick = $state(0);
  notices = $state<Notice[]>([]);
  baseLabel = $state('');
  /** The lanes start from an imported checkpoint rather than the shipped base. */
  imported = $state(false);
  readonly lanes: [Lane, Lane] = [new Lane(0), new Lane(1)];
  /** The opt-in LLM mentor (off until the person switches it on). */
  readonly llm = new LlmMentor(
    () => this.lanes,
    () => this.config.backend,
    (message) => this.notify('warning', message),
  );

  private base: Base | null = null;
  private store: RunStore | null = null;
  private storeFailed = false;
  /** The saved run is replaced by this one at its first save (not before: a reload may want it). */
  private needsBegin = false;
  private gen = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private pendingLevels = 0;
  private noticeId = 0;
  private drawTimer: ReturnType<typeof setTimeout> | null = null;
  private drawFrame = 0;
  private lastDraw = 0;
  private saveTimer: ReturnType<typeof setInterval> | null = null;

  readonly names = $derived(laneNames(this.config.methods));
  readonly levels = $derived(levelRange(this.config.task));

  hidden(part: Hideable): boolean {
    return this.config.hide.includes(part);
  }

  // ---------------------------------------------------------------- notices

  notify(level: NoticeLevel, message: string, action?: Notice['action'], details?: string[]): void {
    const last = this.notices[this.notices.length - 1];
    if (last && last.message === message && !action && !details) return;
    const next = [...this.notices, { id: ++this.noticeId, level, message, action, details }];
    this.notices = next.slice(-MAX_NOTICES);
  }

  dismiss(id: number): void {
    this.notices = this.notices.filter((n) => n.id !== id);
  }

  // ---------------------------------------------------------------- start-up

  /** Read the URL, restore a saved run when it is this experiment, load the base, start. */
  async boot(search: string): Promise<void> {
    const decoded = decodeUrl(search);
    if (decoded.notices.length)
      this.notify('warning', 'Some URL settings were changed:', undefined, decoded.notices);
    this.config = decoded.config;
    this.level = levelAt(this.config.schedule, 0);
    this.writeUrl();
    this.saveTimer = setInterval(() => void this.flush(), SAVE_INTERVAL_MS);
    try {
      this.store = await RunStore.open();
    } catch (e) {
      this.storageFailed(e);
    }
    const saved = await this.loadSaved();
    if (saved && (!decoded.explicit || sameExperiment(saved.config, decoded.config))) {
      if (decoded.explicit) {
        // View settings from the URL win over the saved ones.
        saved.config.speed = decoded.config.speed;
        saved.config.hide = decoded.config.hide;
        saved.config.backend = decoded.config.backend;
      }
      await this.resumeSaved(saved);
      return;
    }
    if (saved) {
      const query = encodeUrl(saved.config);
      this.notify(
        'info',
        `A saved run (${saved.config.task}, ${saved.steps} steps) was not restored: this URL describes another experiment. Training here replaces it.`,
        { label: 'Open the saved run', run: () => location.assign(`${location.pathname}${query}`) },
      );
    }
    await this.restart({ newRun: !saved });
  }

  private async loadSaved(): Promise<{
    config: ExperimentConfig;
    lanes: StepMetrics[][];
    checkpoints: SavedCheckpoint[];
    steps: number;
    base: string;
  } | null> {
    if (!this.store) return null;
    try {
      const r = await this.store.load();
      if (!r) return null;
      const { run, dropped } = r;
      if (dropped)
        this.notify('warning', `The saved run had ${dropped} unreadable steps; they were dropped.`);
      if (!run.lanes.some((l) => l.length)) return null;
      const d = decodeUrl(run.meta.query);
      if (d.notices.length) return null;
      const steps = Math.min(...run.lanes.map((l) => (l.length ? l[l.length - 1].step + 1 : 0)));
      return {
        config: d.config,
        lanes: run.lanes,
        checkpoints: run.checkpoints,
        steps,
        base: run.meta.base,
      };
    } catch (e) {
      this.storageFailed(e);
      return null;
    }
  }

  private async resumeSaved(saved: NonNullable<Awaited<ReturnType<Experiment['loadSaved']>>>) {
    this.config = saved.config;
    this.writeUrl();
    const base = saved.checkpoints.find((c) => c.lane === -1);
    const lanes = [0, 1].map((i) => saved.checkpoints.find((c) => c.lane === i));
    // Resume where both lanes have a checkpoint of the same step; else from the base at step 0.
    const step = lanes[0] && lanes[1] && lanes[0].step === lanes[1].step ? lanes[0].step : 0;
    this.lanes.forEach((lane, i) => {
      lane.metrics = saved.lanes[i].filter((m) => m.step < step);
      lane.unsaved = [];
      lane.nextStep = step;
    });
    if (base) this.base = { bytes: base.bytes, label: saved.base, imported: true };
    // Steps after the checkpoint are run again: forget them in storage too.
    for (const lane of this.lanes) await this.guard(() => this.store?.truncate(lane.index, step));
    const ok = await this.restart({
      newRun: false,
      keepMetrics: true,
      from: step > 0 ? [lanes[0]!.bytes, lanes[1]!.bytes] : undefined,
      startStep: step,
    });
    if (!ok) return;
    this.notify(
      'info',
      step > 0
        ? `Restored the saved run (${saved.steps} steps); training resumes from the checkpoint at step ${step}${step < saved.steps ? ', and the steps after it run again' : ''}.`
        : 'Restored the saved run’s settings; it had no checkpoint yet, so training starts from step 0.',
      { label: 'Start over', run: () => void this.reset() },
    );
  }

  // ---------------------------------------------------------------- lanes

  private laneConfig(i: 0 | 1): LaneConfig {
    const c = this.config;
    return {
      task: c.task,
      method: c.methods[i],
      preset: c.model,
      seed: c.seed,
      backend: c.backend,
      schedule: c.schedule.map((x) => ({ ...x })),
      prompts: c.prompts,
      groupSize: c.groupSize,
      lr: c.lr,
      evalEvery: c.evalEvery,
      evalSize: c.evalSize,
      replayShare: c.replay,
      snapshotEvery: SNAPSHOT_EVERY,
      planDeadlineMs: PLAN_DEADLINE_MS,
    };
  }

  private async ensureBase(): Promise<Base> {
    if (this.base) return this.base;
    const bytes = await fetchBaseCheckpoint(this.config.task, this.config.model);
    this.base = {
      bytes,
      label: `shipped base (${this.config.task}-${this.config.model})`,
      imported: false,
    };
    return this.base;
  }

  private onLaneEvent(lane: Lane, gen: number, e: LaneEvent): void {
    if (gen !== this.gen) return;
    if (e.type === 'notice') this.notify(e.level, `${lane.name}: ${e.message}`);
    else if (e.type === 'llm-lost') {
      this.llm.lost(lane.name, e.message);
      this.notify('warning', `${lane.name}: ${e.message}`);
    } else if (e.type === 'resumed') {
      lane.info = e.info;
      // The old session's failure is over: the lane runs again.
      lane.error = null;
      if (e.step < lane.nextStep) {
        lane.truncate(e.step);
        void this.guard(() => this.store?.truncate(lane.index, e.step));
      }
      this.syncStep();
      this.redraw(true);
    }
  }

  /**
   * Stop whatever runs, start both lanes afresh (from the base, or from `from` at `startStep`).
   * Returns whether both lanes are ready.
   */
  private async restart(opts: {
    newRun: boolean;
    keepMetrics?: boolean;
    from?: [Uint8Array, Uint8Array];
    startStep?: number;
  }): Promise<boolean> {
    const gen = ++this.gen;
    this.llm.lanesStopping();
    this.queue = Promise.resolve();
    this.pendingLevels = 0;
    this.phase = 'loading';
    this.problem = null;
    this.busy = false;
    const startStep = opts.startStep ?? 0;
    for (const lane of this.lanes) {
      lane.client?.dispose();
      lane.client = null;
      lane.info = null;
      lane.error = null;
      lane.lastEvent = null;
      lane.method = this.config.methods[lane.index];
      lane.name = this.names[lane.index];
      if (!opts.keepMetrics) {
        lane.metrics = [];
        lane.unsaved = [];
      }
      lane.nextStep = startStep;
    }
    this.step = startStep;
    this.level = levelAt(this.config.schedule, startStep);
    this.redraw(true);
    let base: Base;
    try {
      base = await this.ensureBase();
    } catch (e) {
      if (gen !== this.gen) return false;
      this.fail((e as Error).message);
      return false;
    }
    if (gen !== this.gen) return false;
    this.baseLabel = base.label;
    this.imported = base.imported;
    if (opts.newRun) this.needsBegin = true;
    try {
      await Promise.all(
        this.lanes.map(async (lane) => {
          const client = new LaneClient();
          lane.client = client;
          const bytes = opts.from ? opts.from[lane.index] : base.bytes;
          lane.info = await client.init(
            this.laneConfig(lane.index),
            bytes,
            (e) => this.onLaneEvent(lane, gen, e),
            startStep,
          );
        }),
      );
    } catch (e) {
      if (gen !== this.gen) return false;
      this.fail(`a lane could not start: ${(e as Error).message}`);
      return false;
    }
    if (gen !== this.gen) return false;
    this.phase = 'ready';
    this.llm.lanesReady();
    this.redraw(true);
    return true;
  }

  private fail(message: string): void {
    this.phase = 'error';
    this.problem = message;
    this.notify('error', message);
  }

  // ---------------------------------------------------------------- training

  /** Run `job` when no other step or command is in flight. */
  private exclusive<T>(job: () => Promise<T>): Promise<T> {
    const next = this.queue.then(job, job);
    this.queue = next.catch(() => {});
    return next;
  }

  /** One lockstep iteration: the lanes that are behind (normally both) do one step. */
  private async iterate(gen: number): Promise<boolean> {
    const min = Math.min(...this.lanes.map((l) => l.nextStep));
    const due = this.lanes.filter((l) => l.nextStep === min && l.client);
    const results = await Promise.all(
      due.map((l) =>
        (l.client as LaneClient).step().then(
          (m) => ({ lane: l, m, error: null as string | null }),
          (e: unknown) => ({ lane: l, m: null, error: String((e as Error).message ?? e) }),
        ),
      ),
    );
    if (gen !== this.gen) return false;
    let ok = true;
    for (const r of results) {
      if (r.m) {
        if (r.lane.record(r.m))
          void this.guard(() => this.store?.truncate(r.lane.index, r.m!.step + 1));
        continue;
      }
      ok = false;
      let why = r.error ?? r.lane.error;
      if (!why) {
        const s = await r.lane.client?.status().catch(() => null);
        why =
          s?.message ??
          (s?.state === 'error' || s?.state === 'stopped'
            ? `the trainer has ${s.state === 'error' ? 'failed' : 'stopped'}`
            : s
              ? 'its step did not complete'
              : 'the trainer does not answer');
      }
      r.lane.error = why;
      this.notify(
        'error',
        `${r.lane.name} stopped at step ${r.lane.nextStep}: ${why}. Press Reset to start again.`,
      );
    }
    this.syncStep();
    if (
      ok &&
      this.lanes.every((l) => l.nextStep === this.step) &&
      this.step % CHECKPOINT_EVERY === 0
    )
      await this.saveCheckpoints(gen);
    this.redraw();
    return ok;
  }

  private syncStep(): void {
    this.step = Math.min(...this.lanes.map((l) => l.nextStep));
    if (this.pendingLevels === 0) this.level = levelAt(this.config.schedule, this.step);
  }

  play(): void {
    if (this.phase !== 'ready' || this.busy) return;
    this.phase = 'running';
    const gen = this.gen;
    void (async () => {
      while (this.phase === 'running' && gen === this.gen) {
        const ok = await this.exclusive(() => this.iterate(gen));
        if (!ok && gen === this.gen) {
          this.phase = 'ready';
          break;
        }
        // Let the page breathe between steps (input, redraws).
        await new Promise((r) => setTimeout(r, 0));
      }
      if (gen === this.gen) {
        // Paused: the step that was running has finished.
        this.busy = false;
        this.redraw(true);
        void this.flush();
      }
    })();
  }

  /** Stop after the step in progress (`busy` until it has finished). */
  pause(): void {
    if (this.phase !== 'running') return;
    this.phase = 'ready';
    this.busy = true;
    const gen = this.gen;
    void this.exclusive(async () => {
      if (gen === this.gen && this.phase === 'ready') await this.saveCheckpoints(gen);
    });
  }

  /** One step of both lanes (paused only). */
  async stepOnce(): Promise<void> {
    if (this.phase !== 'ready' || this.busy) return;
    this.busy = true;
    const gen = this.gen;
    try {
      await this.exclusive(() => this.iterate(gen));
    } finally {
      if (gen === this.gen) {
        this.busy = false;
        this.redraw(true);
      }
    }
  }

  /** Back to step 0 from the base policy; recorded difficulty changes are forgotten. */
  async reset(): Promise<void> {
    this.config.schedule = [this.config.schedule[0]];
    this.writeUrl();
    await this.restart({ newRun: true });
  }

  /** The difficulty of both lanes from the next step on; recorded in the schedule (and URL). */
  setLevel(level: number): void {
    const { min, max } = this.levels;
    if (!Number.isInteger(level)) return;
    level = Math.min(max, Math.max(min, level));
    if (this.phase === 'loading' || this.phase === 'error') return;
    this.level = level;
    this.pendingLevels++;
    const gen = this.gen;
    void this.exclusive(async () => {
      if (gen !== this.gen) return;
      try {
        const at = Math.max(...this.lanes.map((l) => l.nextStep));
        await Promise.all(this.lanes.map((l) => l.client?.setLevel(level)));
        if (gen !== this.gen) return;
        this.config.schedule = withLevelChange(this.config.schedule, at, level);
        this.writeUrl();
        void this.saveMeta();
      } catch (e) {
        this.notify('error', `Could not change the difficulty: ${(e as Error).message}`);
      } finally {
        if (gen === this.gen) {
          this.pendingLevels--;
          this.syncStep();
        }
      }
    });
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
        const bytes = await fetchBaseCheckpoint(this.config.task, this.config.model);
        this.base = {
          bytes,
          label: `shipped base (${this.config.task}-${this.config.model})`,
          imported: false,
        };
      } catch (e) {
        this.config = before;
        this.notify('error', `${(e as Error).message}. The experiment was not changed.`);
        return;
      }
    }
    this.writeUrl();
    await this.restart({ newRun: true });
  }

  setMethod(lane: 0 | 1, method: Method): Promise<void> {
    return this.reconfigure((c) => {
      c.methods[lane] = method;
      c.schedule = [c.schedule[0]];
    }, false);
  }

  setTask(task: FamilyId): Promise<void> {
    if (task === this.config.task) return Promise.resolve();
    return this.reconfigure((c) => {
      c.task = task;
      c.schedule = startSchedule(task);
    }, true);
  }

  applyPreset(id: TeachingPresetId): Promise<void> {
    const hide = this.config.hide;
    const backend = this.config.backend;
    return this.reconfigure((c) => {
      Object.assign(c, presetConfig(id), { hide, backend });
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
      this.notify('warning', 'Some settings were changed:', undefined, decoded.notices);
    const next = decoded.config;
    const reload = next.model !== current.model || next.task !== current.task;
    return this.reconfigure((c) => Object.assign(c, next), reload);
  }

  setSpeed(speed: Speed): void {
    this.config.speed = speed;
    this.writeUrl();
    void this.saveMeta();
    this.redraw(true);
  }

  // ---------------------------------------------------------------- drawing

  /** Ask for a redraw; the speed setting decides when it happens. */
  redraw(force = false): void {
    const speed = this.config.speed;
    if (!force && this.phase === 'running') {
      if (speed === 'turbo') return;
      if (speed === 'fast') {
        const wait = FAST_REDRAW_MS - (performance.now() - this.lastDraw);
        if (wait > 0) {
          this.drawTimer ??= setTimeout(() => {
            this.drawTimer = null;
            this.redraw(true);
          }, wait);
          return;
        }
      }
    }
    if (this.drawFrame) return;
    const frame =
      typeof requestAnimationFrame === 'function'
        ? requestAnimationFrame
        : (f: () => void) => setTimeout(f, 16);
    this.drawFrame = frame(() => {
      this.drawFrame = 0;
      this.lastDraw = performance.now();
      this.tick++;
    }) as number;
  }

  // ---------------------------------------------------------------- URL and storage

  private writeUrl(): void {
    try {
      history.replaceState(history.state, '', `${encodeUrl(this.config)}${location.hash}`);
    } catch {
      // A sandboxed frame may refuse; the experiment goes on.
    }
  }

  private storageFailed(e: unknown): void {
    if (this.storeFailed) return;
    this.storeFailed = true;
    this.store = null;
    this.notify(
      'warning',
      `This run cannot be saved in the browser (${String((e as Error)?.message ?? e)}); it will not survive a reload. Export it to keep it.`,
    );
  }

  private async guard(job: () => Promise<void> | undefined): Promise<void> {
    if (!this.store) return;
    try {
      await job();
    } catch (e) {
      this.storageFailed(e);
    }
  }

  private meta() {
    return {
      version: 1 as const,
      query: encodeUrl(this.config),
      savedAt: Date.now(),
      base: this.base?.label ?? '',
    };
  }

  private async beginRun(): Promise<void> {
    if (!this.needsBegin) return;
    this.needsBegin = false;
    await this.guard(async () => {
      await this.store?.begin(this.meta());
      if (this.base?.imported)
        await this.store?.saveCheckpoints([{ lane: -1, step: 0, bytes: this.base.bytes }]);
    });
  }

  private saveMeta(): Promise<void> {
    if (this.needsBegin) return Promise.resolve();
    return this.guard(() => this.store?.saveMeta(this.meta()));
  }

  /** Write the steps not yet saved. */
  async flush(): Promise<void> {
    if (!this.store || this.lanes.every((l) => !l.unsaved.length)) return;
    await this.beginRun();
    for (const lane of this.lanes) {
      if (!lane.unsaved.length) continue;
      const batch = lane.unsaved;
      lane.unsaved = [];
      await this.guard(() => this.store?.appendSteps(lane.index, batch));
    }
  }

  private async saveCheckpoints(gen: number): Promise<void> {
    if (!this.store || this.lanes.some((l) => !l.client)) return;
    const step = this.step;
    if (step === 0 || this.lanes.some((l) => l.nextStep !== step)) return;
    try {
      const bytes = await Promise.all(
        this.lanes.map((l) => (l.client as LaneClient).exportCheckpoint()),
      );
      if (gen !== this.gen) return;
      await this.flush();
      await this.guard(async () => {
        await this.store?.saveCheckpoints(bytes.map((b, i) => ({ lane: i, step, bytes: b })));
        await this.store?.saveMeta(this.meta());
      });
    } catch (e) {
      this.notify('warning', `Could not save a checkpoint: ${(e as Error).message}`);
    }
  }

  // ---------------------------------------------------------------- export / import

  private laneExport(lane: Lane) {
    return {
      lane: lane.letter,
      name: lane.name,
      method: lane.method,
      backend: lane.info?.backend ?? null,
      config: $state.snapshot(this.config) as ExperimentConfig,
      query: encodeUrl(this.config),
    };
  }

  exportCsv(lane: Lane): void {
    download(
      exportName(this.config, lane.letter, lane.method, lane.nextStep, 'csv'),
      metricsCsv(lane.metrics),
      'text/csv',
    );
  }

  exportJson(lane: Lane): void {
    download(
      exportName(this.config, lane.letter, lane.method, lane.nextStep, 'json'),
      metricsJson(this.laneExport(lane), lane.metrics),
      'application/json',
    );
  }

  async exportPolicy(lane: Lane): Promise<void> {
    const client = lane.client;
    if (!client) return;
    try {
      const bytes = await this.exclusive(() => client.exportCheckpoint());
      download(
        exportName(this.config, lane.letter, lane.method, lane.nextStep, 'safetensors'),
        bytes as BlobPart,
        'application/octet-stream',
      );
    } catch (e) {
      this.notify('error', `Could not export ${lane.name}'s policy: ${(e as Error).message}`);
    }
  }

  /** Check a checkpoint file completely; a good one restarts both lanes from it. */
  async importCheckpoint(file: File): Promise<boolean> {
    const name = file.name.length > 60 ? `${file.name.slice(0, 57)}…` : file.name;
    let bytes: Uint8Array;
    let result: CheckResult;
    try {
      if (file.size > MAX_CHECKPOINT_BYTES)
        throw new Error(
          `the file is ${(file.size / 2 ** 20).toFixed(0)} MiB, too large for a checkpoint`,
        );
      bytes = new Uint8Array(await file.arrayBuffer());
      result = await checkCheckpointBytes(bytes);
    } catch (e) {
      this.notify(
        'error',
        `Import of "${name}" failed: ${(e as Error).message}. Nothing was changed.`,
      );
      return false;
    }
    if (!result.ok) {
      this.notify('error', `Import of "${name}" failed: ${result.message}. Nothing was changed.`);
      return false;
    }
    const checked = result.checkpoint;
    this.base = { bytes, label: `imported ${name}`, imported: true };
    if (checked.task && checked.task !== this.config.task) {
      this.config.task = checked.task;
      this.config.schedule = startSchedule(checked.task);
    } else {
      this.config.schedule = [this.config.schedule[0]];
    }
    this.writeUrl();
    this.notify(
      'info',
      `Imported "${name}" (${checked.parameters.toLocaleString('en-US')} parameters${checked.task ? `, ${checked.task}` : ''}): both lanes restarted from it.`,
    );
    await this.restart({ newRun: true });
    return true;
  }

  /** Go back to the shipped base after an import. */
  async useShippedBase(): Promise<void> {
    this.base = null;
    await this.reset();
  }

  // ---------------------------------------------------------------- inspector / tests

  rollouts(lane: Lane): Promise<RolloutGroup[]> {
    return lane.client ? lane.client.rollouts() : Promise.resolve([]);
  }

  /** Destroy a lane's WebGPU device on purpose (Diagnostics): it resumes from its snapshot. */
  async loseDevice(lane: Lane): Promise<void> {
    const ok = (await lane.client?.loseDevice()) ?? false;
    if (!ok)
      this.notify('info', `${lane.name} does not run on WebGPU: there is no device to lose.`);
  }

  badge(): { info: BadgeInfo | null; error: string | null } {
    const infos = this.lanes.map((l) => l.info);
    if (this.phase === 'error' && infos.every((i) => !i))
      return { info: null, error: this.problem };
    const [a, b] = infos;
    if (!a || !b) return { info: null, error: null };
    const one = (i: LaneInfo): BadgeInfo => ({
      kind: i.backendKind,
      name: i.backend,
      fallbackReason: i.fallbackReason,
    });
    if (a.backend === b.backend && a.fallbackReason === b.fallbackReason)
      return { info: one(a), error: null };
    return {
      info: {
        kind: a.backendKind === 'webgpu' && b.backendKind === 'webgpu' ? 'webgpu' : 'cpu',
        name: this.lanes.map((l) => `${l.name}: ${l.info?.backend}`).join(' · '),
        fallbackReason: null,
      },
      error: null,
    };
  }

  dispose(): void {
    this.gen++;
    if (this.saveTimer) clearInterval(this.saveTimer);
    void this.flush();
    for (const lane of this.lanes) lane.client?.dispose();
    this.store?.close();
  }
}
