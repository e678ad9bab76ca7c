// One lane as the page sees it: its method and name, its worker, and every step's metrics (the
// charts, the mentor log and the exports read them).
import type { InterventionRecord, StepMetrics } from '../../rl/metrics.ts';
import type { RolloutGroup } from '../rollouts.ts';
import type { LaneMethod } from '../experiment-config.ts';
import { takesLlm } from '../../interventions/methods.ts';
import type { TrainingState } from '../../rl/training-state.ts';
import { LaneClient, type LaneStart } from './lane-client.ts';
import type { LaneStep } from './lane.worker.ts';
import type { LaneConfig, LaneEvent, LaneInfo } from './lane-types.ts';

// The page lays the log out again whenever it grows, so it shows the latest few (a few hundred
// rows made every redraw of a rescue cost 150–500 ms of layout on the page's thread).
export const LOG_CAP = 60;
/** The trainer's notes a lane shows (all are in the exports). */
export const EVENT_CAP = 50;

/** A worker's first step compiles and warms up: it may take this long before it is ended. */
const FIRST_STEP_DEADLINE_MS = 180_000;
/** Later steps get this long at least, or STEP_DEADLINE_FACTOR × the slowest recent step. */
const MIN_STEP_DEADLINE_MS = 60_000;
const STEP_DEADLINE_FACTOR = 20;
const RECENT_STEPS = 20;

export class Lane {
  readonly index: 0 | 1;
  readonly letter: 'A' | 'B';
  name = $state('');
  method = $state<LaneMethod>('none');
  info = $state<LaneInfo | null>(null);
  error = $state<string | null>(null);
  /** Latest trainer event (e.g. the mentor missed its deadline), for the lane panel. */
  lastEvent = $state<string | null>(null);
  /** Plain arrays: the charts read them when the experiment's `tick` moves. */
  metrics: StepMetrics[] = [];
  /** Steps not yet written to the saved run. */
  unsaved: StepMetrics[] = [];
  nextStep = 0;
  client: LaneClient | null = null;
  /** The lane's state after its latest step: a restarted worker goes on from it. */
  state: TrainingState | null = null;
  /** Where the lane started (before its first state came back). */
  private origin: LaneStart | null = null;
  /** Steps that failed in a row (a crash, a hang, a trainer error); a good step clears it. */
  failures = 0;
  /** The lane gave up (too many failures in a row); the other lane goes on. */
  stopped = $state(false);
  /** Wall times of the worker's recent steps, for its deadline; empty for a fresh worker. */
  private stepMs: number[] = [];

  /** Whether the language-model agent can join this lane's method. */
  get takesLlm(): boolean {
    return takesLlm(this.method);
  }

  constructor(index: 0 | 1) {
    this.index = index;
    this.letter = index === 0 ? 'A' : 'B';
  }

  /** End the worker; the lane is to start at `startStep` as `method`, named `name`. */
  prepare(method: LaneMethod, name: string, startStep: number, keepMetrics: boolean): void {
    this.client?.dispose();
    this.client = null;
    this.info = null;
    this.error = null;
    this.lastEvent = null;
    this.method = method;
    this.name = name;
    this.state = null;
    this.origin = null;
    this.failures = 0;
    this.stopped = false;
    this.stepMs = [];
    if (!keepMetrics) {
      this.metrics = [];
      this.unsaved = [];
    }
    this.nextStep = startStep;
  }

  /** Start a worker from a checkpoint (with the steps it has done) or a training state. */
  async start(config: LaneConfig, from: LaneStart, onEvent: (e: LaneEvent) => void): Promise<void> {
    this.origin = from;
    await this.launch(config, from, onEvent);
  }

  /**
   * A fresh worker in place of one that failed, from the lane's latest state (from where it
   * started, before it had one). Returns the step it goes on from.
   */
  async restart(config: LaneConfig, onEvent: (e: LaneEvent) => void): Promise<number> {
    const from = this.state ? { state: this.state } : this.origin;
    if (!from) throw new Error('the lane never started');
    const step = 'state' in from ? from.state.counters.step : from.step;
    this.client?.dispose();
    this.client = null;
    this.truncate(step);
    await this.launch(config, from, onEvent);
    return step;
  }

  private async launch(
    config: LaneConfig,
    from: LaneStart,
    onEvent: (e: LaneEvent) => void,
  ): Promise<void> {
    const client = new LaneClient(`lane ${this.letter}`);
    this.client = client;
    this.stepMs = [];
    this.info = await client.init(config, from, onEvent);
    this.error = null;
  }

  /** How long the worker's next step may take before the worker is ended as hung. */
  stepDeadlineMs(): number {
    if (this.stepMs.length === 0) return FIRST_STEP_DEADLINE_MS;
    return Math.max(MIN_STEP_DEADLINE_MS, STEP_DEADLINE_FACTOR * Math.max(...this.stepMs));
  }

  /** One step of the worker, timed for its deadline. */
  async step(client: LaneClient): Promise<LaneStep | null> {
    const t0 = performance.now();
    const r = await client.step(this.stepDeadlineMs());
    this.stepMs = [...this.stepMs.slice(1 - RECENT_STEPS), performance.now() - t0];
    return r;
  }

  /** Give up on the lane: its worker ends, its metrics stay, the other lane goes on. */
  stop(why: string): void {
    this.client?.dispose();
    this.client = null;
    this.stopped = true;
    this.error = why;
  }

  /** Why a step did not complete: `known` or the lane's error, else what its worker says. */
  async whyStopped(known: string | null): Promise<string> {
    const why = known ?? this.error;
    if (why) return why;
    const s = await this.client?.status().catch(() => null);
    return (
      s?.message ??
      (s?.state === 'error' || s?.state === 'stopped'
        ? `the trainer has ${s.state === 'error' ? 'failed' : 'stopped'}`
        : s
          ? 'its step did not complete'
          : 'the trainer does not answer')
    );
  }

  /** A step came back: its metrics, and the state after it. */
  recordStep(r: LaneStep): boolean {
    this.failures = 0;
    if (r.state) this.state = r.state;
    return this.record(r.metrics);
  }

  /** Add a step; a step the lane already had (it rewound after device loss) replaces the rest. */
  private record(m: StepMetrics): boolean {
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

  /** The worker runs again after device loss, from its snapshot after `step` steps. */
  resumed(info: LaneInfo, step: number): boolean {
    this.info = info;
    // The old session's failure is over.
    this.error = null;
    if (step >= this.nextStep) return false;
    this.truncate(step);
    return true;
  }

  truncate(fromStep: number): void {
    this.metrics = this.metrics.filter((x) => x.step < fromStep);
    this.unsaved = this.unsaved.filter((x) => x.step < fromStep);
    this.nextStep = fromStep;
  }

  /** Steps read back from the saved run (so already saved); the lane goes on at `step`. */
  restore(saved: StepMetrics[], step: number): void {
    this.metrics = saved;
    this.unsaved = [];
    this.nextStep = step;
  }

  /** The mentor log: newest first, at most LOG_CAP records. */
  log(cap = LOG_CAP): InterventionRecord[] {
    return this.newestFirst(cap, (m) => m.interventions);
  }

  /** What the trainer said of its steps (refused reprompts, a mentor's faults): newest first. */
  events(cap = EVENT_CAP): { step: number; message: string }[] {
    return this.newestFirst(cap, ({ step, events }) =>
      events.map((message) => ({ step, message })),
    );
  }

  /** The latest `cap` items of every step, newest first, reading no further back than needed. */
  private newestFirst<T>(cap: number, items: (m: StepMetrics) => readonly T[]): T[] {
    const out: T[] = [];
    for (let i = this.metrics.length - 1; i >= 0 && out.length < cap; i--) {
      const list = items(this.metrics[i]);
      for (let j = list.length - 1; j >= 0 && out.length < cap; j--) out.push(list[j]);
    }
    return out;
  }

  interventionCount(): number {
    let n = 0;
    for (const m of this.metrics) n += m.interventions.length;
    return n;
  }

  /** The groups of the lane's latest step, for the rollout inspector. */
  rollouts(): Promise<RolloutGroup[]> {
    return this.client ? this.client.rollouts() : Promise.resolve([]);
  }
}
