// Two lanes (each a worker with its own trainer) driven in lockstep — both run step n, then both
// run step n+1 — so they always compare at the same step, and a difficulty change lands on both at
// the same step. One job at a time touches the lanes (a step, a level change, a checkpoint);
// every start bumps a generation, and work of an older one is dropped when it comes back.
import { levelAt } from '../rl/level-schedule.ts';
import { familyEntry } from '../tasks/index.ts';
import { CUSTOM, laneNames, type ExperimentConfig } from './experiment-config.ts';
import type { LaneClient, LaneStart } from './lane/lane-client.ts';
import { JobQueue } from './job-queue.ts';
import { laneConfig } from './lane/lane-config.ts';
import type { LaneConfig, LaneEvent } from './lane/lane-types.ts';
import { Lane } from './lane/lane.svelte.ts';
import type { LlmMentor } from './llm-mentor.svelte.ts';
import type { Notices } from './notices.svelte.ts';
import type { RunPersistence } from './run-persistence.ts';

/** `waiting`: there is nothing to train yet (a custom task before its base is warmed up). */
export type Phase = 'loading' | 'ready' | 'running' | 'waiting' | 'error';

/** Checkpoints of both lanes are saved every this many steps (and on pause). */
export const CHECKPOINT_EVERY = 20;

/** A lane whose steps fail this many times in a row (each time restarted) is stopped. */
export const MAX_FAILURES_IN_A_ROW = 3;

/** What the lanes need from the rest of the page. */
export interface LockstepHooks {
  config: () => ExperimentConfig;
  /** The policy the run started from (checkpoint bytes): what the lanes distill to. */
  base: () => Uint8Array | null;
  /** The custom method's applied code, for a lane whose method it is (null: none yet). */
  mentorCode: () => string | null;
  /** The custom task's checked code and account, for lanes on task `custom` (null: none yet). */
  customTask: () => LaneConfig['customTask'];
  notices: Notices;
  llm: Pick<LlmMentor, 'lanesStopping' | 'lanesReady' | 'lost'>;
  redraw: (force?: boolean) => void;
  /** The saved run: stale steps go, checkpoints are taken now and then, the rest on pause. */
  saved: Pick<RunPersistence, 'forgetSteps' | 'saveCheckpoints' | 'flush'>;
  /** A level change went into the config's schedule. */
  scheduleChanged: () => void;
  /** A custom lane loaded the person's code, or says why it cannot. */
  customReport: (fault: boolean, message: string) => void;
}

export class LockstepLanes {
  phase = $state<Phase>('loading');
  /** Why the lanes cannot train (phase 'error'), or what they wait for (phase 'waiting'). */
  problem = $state<string | null>(null);
  /** A single step or a level change is being applied. */
  busy = $state(false);
  /** The difficulty the slider shows: the level of the next step. */
  level = $state(3);
  /** Steps both lanes have done. */
  step = $state(0);
  readonly lanes: [Lane, Lane] = [new Lane(0), new Lane(1)];

  private gen = 0;
  /** A step, a level change or a checkpoint export: one at a time. */
  private jobs = new JobQueue();
  private pendingLevels = 0;

  constructor(private readonly hooks: LockstepHooks) {}

  /**
   * End whatever runs and set the lanes up to start at `startStep` (their metrics kept or
   * cleared). Returns the new generation, for isCurrent() and launch().
   */
  stop(startStep: number, keepMetrics: boolean): number {
    const gen = ++this.gen;
    this.hooks.llm.lanesStopping();
    this.jobs = new JobQueue();
    this.pendingLevels = 0;
    this.phase = 'loading';
    this.problem = null;
    this.busy = false;
    const config = this.hooks.config();
    const names = laneNames(config.methods);
    for (const lane of this.lanes)
      lane.prepare(config.methods[lane.index], names[lane.index], startStep, keepMetrics);
    this.step = startStep;
    this.level = levelAt(config.schedule, startStep);
    this.hooks.redraw(true);
    return gen;
  }

  /** Whether `gen` (from stop()) is still the lanes' generation. */
  isCurrent(gen: number): boolean {
    return gen === this.gen;
  }

  /** Start both lanes' workers from these starts; returns whether both are ready. */
  async launch(gen: number, starts: readonly [LaneStart, LaneStart]): Promise<boolean> {
    try {
      await Promise.all(
        this.lanes.map((lane) =>
          lane.start(this.laneConfig(lane), starts[lane.index], (e) =>
            this.onLaneEvent(lane, gen, e),
          ),
        ),
      );
    } catch (e) {
      if (gen !== this.gen) return false;
      this.fail(`a lane could not start: ${(e as Error).message}`);
      return false;
    }
    if (gen !== this.gen) return false;
    this.phase = 'ready';
    this.hooks.llm.lanesReady();
    this.hooks.redraw(true);
    return true;
  }

  private laneConfig(lane: Lane) {
    const { config, base, mentorCode, customTask } = this.hooks;
    return laneConfig(config(), lane.index, base(), mentorCode(), customTask());
  }

  /** The lanes cannot train, and why: said in the status and in a notice. */
  fail(message: string): void {
    this.phase = 'error';
    this.problem = message;
    this.hooks.notices.notify('error', message);
  }

  /** Nothing to train yet, and what would start the lanes: said in the status, not as an error. */
  wait(message: string): void {
    this.phase = 'waiting';
    this.problem = message;
  }

  /** Whether the lanes are up (a level change or new code can reach them). */
  private get up(): boolean {
    return this.phase === 'ready' || this.phase === 'running';
  }

  private onLaneEvent(lane: Lane, gen: number, e: LaneEvent): void {
    if (gen !== this.gen) return;
    const { notices, llm } = this.hooks;
    if (e.type === 'notice') notices.notify(e.level, `${lane.name}: ${e.message}`);
    else if (e.type === 'custom-mentor') {
      // Only the latest load holds: code that loads clears the word that earlier code did not.
      notices.replace(
        `custom-mentor ${lane.index}`,
        e.fault ? 'warning' : 'info',
        `${lane.name}: ${e.message}`,
      );
      this.hooks.customReport(e.fault, e.message);
    } else if (e.type === 'llm-lost') {
      llm.lost(lane.name, e.message);
      notices.notify('warning', `${lane.name}: ${e.message}`);
    } else if (e.type === 'resumed') {
      if (lane.resumed(e.info, e.step)) void this.hooks.saved.forgetSteps(lane.index, e.step);
      this.syncStep();
      this.hooks.redraw(true);
    }
  }

  /** The lanes still training (not stopped after failures in a row). */
  private active(): Lane[] {
    return this.lanes.filter((l) => !l.stopped && l.client);
  }

  /**
   * One lockstep iteration: the lanes that are behind (normally both) do one step. A lane whose
   * step fails (its worker crashed, ended or hung, or its trainer failed) gets a fresh worker
   * from its latest state and runs the step again in a later iteration, while the other waits;
   * after MAX_FAILURES_IN_A_ROW it is stopped and the other goes on alone.
   */
  private async iterate(gen: number): Promise<boolean> {
    const active = this.active();
    if (active.length === 0) return false;
    const min = Math.min(...active.map((l) => l.nextStep));
    const due = active.filter((l) => l.nextStep === min);
    const results = await Promise.all(
      due.map((l) =>
        l.step(l.client as LaneClient).then(
          (r) => ({ lane: l, r, error: null as string | null }),
          (e: unknown) => ({ lane: l, r: null, error: String((e as Error).message ?? e) }),
        ),
      ),
    );
    if (gen !== this.gen) return false;
    for (const { lane, r, error } of results) {
      if (r) {
        if (lane.recordStep(r)) void this.hooks.saved.forgetSteps(lane.index, r.metrics.step + 1);
        continue;
      }
      await this.recoverLane(lane, gen, await lane.whyStopped(error));
      if (gen !== this.gen) return false;
    }
    this.syncStep();
    if (this.active().length === 0) return false;
    if (
      this.lanes.every((l) => l.nextStep === this.step && !l.stopped) &&
      this.step % CHECKPOINT_EVERY === 0
    )
      await this.hooks.saved.saveCheckpoints(this.step, () => gen === this.gen);
    this.hooks.redraw();
    return true;
  }

  /** A lane's step failed for `why`: a fresh worker from its latest state, or, too often, stop it. */
  private async recoverLane(lane: Lane, gen: number, why: string): Promise<void> {
    const { notices, llm } = this.hooks;
    const at = lane.nextStep;
    while (gen === this.gen) {
      lane.failures++;
      if (lane.failures >= MAX_FAILURES_IN_A_ROW) {
        lane.stop(why);
        const other = this.active().length > 0 ? ' The other lane goes on.' : '';
        notices.notify(
          'error',
          `${lane.name} stopped at step ${at} after ${lane.failures} failures in a row: ${why}.${other} Press Reset to start again.`,
        );
        return;
      }
      // The language model lived in the old worker (a no-op when none is on).
      if (lane.takesLlm)
        llm.lost(lane.name, 'its lane restarted; switch the language model on again');
      try {
        const from = await lane.restart(this.laneConfig(lane), (e) =>
          this.onLaneEvent(lane, gen, e),
        );
        if (from < at) void this.hooks.saved.forgetSteps(lane.index, from);
        notices.notify(
          'warning',
          `${lane.name}: step ${at} failed (${why}); it restarted in a fresh worker from its state at step ${from} (${lane.failures} of ${MAX_FAILURES_IN_A_ROW - 1} restarts in a row).`,
        );
        return;
      } catch (e) {
        why = `it could not restart: ${(e as Error).message}`;
      }
    }
  }

  private syncStep(): void {
    const going = this.lanes.filter((l) => !l.stopped);
    this.step = Math.min(...(going.length ? going : this.lanes).map((l) => l.nextStep));
    if (this.pendingLevels === 0) this.level = levelAt(this.hooks.config().schedule, this.step);
  }

  play(): void {
    if (this.phase !== 'ready' || this.busy) return;
    this.phase = 'running';
    const gen = this.gen;
    void (async () => {
      while (this.phase === 'running' && gen === this.gen) {
        const ok = await this.jobs.run(() => this.iterate(gen));
        if (!ok && gen === this.gen) {
          this.phase = 'ready';
          break;
        }
        // Let the page breathe between steps (input, redraws).
        await new Promise((r) => setTimeout(r, 0));
      }
      if (gen === this.gen) {
        // The step that was running has finished; pause's job says when it is saved too.
        this.hooks.redraw(true);
        void this.hooks.saved.flush();
      }
    })();
  }

  /** Stop after the step in progress (`busy` until it has finished). */
  pause(): void {
    if (this.phase !== 'running') return;
    this.phase = 'ready';
    this.busy = true;
    const gen = this.gen;
    void this.jobs.run(async () => {
      if (gen === this.gen && this.phase === 'ready')
        await this.hooks.saved.saveCheckpoints(this.step, () => gen === this.gen);
      if (gen === this.gen) {
        // Paused once the step in progress is done and saved: a reload then resumes from here.
        this.busy = false;
        this.hooks.redraw(true);
      }
    });
  }

  /** One step of both lanes (paused only). */
  async stepOnce(): Promise<void> {
    if (this.phase !== 'ready' || this.busy) return;
    this.busy = true;
    const gen = this.gen;
    try {
      await this.jobs.run(() => this.iterate(gen));
    } finally {
      if (gen === this.gen) {
        this.busy = false;
        this.hooks.redraw(true);
      }
    }
  }

  /** The difficulty of both lanes from the next step on; recorded in the config's schedule. */
  setLevel(level: number): void {
    const { min, max } = familyEntry(this.hooks.config().task).family.levels;
    if (!Number.isInteger(level)) return;
    level = Math.min(max, Math.max(min, level));
    if (!this.up) return;
    this.level = level;
    this.pendingLevels++;
    const gen = this.gen;
    void this.jobs.run(async () => {
      if (gen !== this.gen) return;
      try {
        // The trainers own the schedule; the lanes step together, so the one furthest along
        // (any, in lockstep) says what it now is, and the config records that.
        const ahead = Math.max(...this.lanes.map((l) => l.nextStep));
        const followed = await Promise.all(this.lanes.map((l) => l.client?.setLevel(level)));
        if (gen !== this.gen) return;
        const schedule =
          followed.find((s, i) => s && this.lanes[i].nextStep === ahead) ?? followed.find(Boolean);
        if (!schedule) return;
        this.hooks.config().schedule = schedule;
        this.hooks.scheduleChanged();
      } catch (e) {
        this.hooks.notices.notify(
          'error',
          `Could not change the difficulty: ${(e as Error).message}`,
        );
      } finally {
        if (gen === this.gen) {
          this.pendingLevels--;
          this.syncStep();
        }
      }
    });
  }

  /**
   * The custom method's new code (the hook gives it to lanes started later): the lanes whose
   * method it is load it between steps, so it helps from the next step.
   */
  applyMentorCode(code: string | null): void {
    if (!this.up) return;
    const gen = this.gen;
    void this.jobs.run(async () => {
      if (gen !== this.gen) return;
      const custom = this.lanes.filter((l) => l.method === CUSTOM && l.client);
      try {
        await Promise.all(custom.map((l) => l.client?.setMentorCode(code)));
      } catch (e) {
        this.hooks.notices.notify(
          'error',
          `Could not apply the custom mentor: ${(e as Error).message}`,
        );
      }
    });
  }

  /** A lane's policy as a checkpoint, taken between steps; null when the lane has no worker. */
  exportCheckpoint(lane: Lane): Promise<Uint8Array | null> {
    const client = lane.client;
    if (!client) return Promise.resolve(null);
    return this.jobs.run(() => client.exportCheckpoint());
  }

  /** Destroy a lane's WebGPU device on purpose (Diagnostics): it resumes from its snapshot. */
  async loseDevice(lane: Lane): Promise<void> {
    const ok = (await lane.client?.loseDevice()) ?? false;
    if (!ok)
      this.hooks.notices.notify(
        'info',
        `${lane.name} does not run on WebGPU: there is no device to lose.`,
      );
  }

  dispose(): void {
    this.gen++;
    for (const lane of this.lanes) lane.client?.dispose();
  }
}
