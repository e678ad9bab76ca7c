import * as Comlink from 'comlink';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelConfig } from '../model/config.ts';
import type { TrainingState } from '../rl/training-state.ts';
import type { LaneStart } from './lane/lane-client.ts';
import type { LaneConfig, LaneEvent } from './lane/lane-types.ts';
import { LockstepLanes, MAX_FAILURES_IN_A_ROW } from './lockstep-lanes.svelte.ts';
import { Notices } from './notices.svelte.ts';
import { presetConfig } from './presets.ts';
import { quietLockstep } from './testing/quiet-lockstep.ts';
import { fakeStep } from './testing/fake-metrics.ts';

/** The state a scripted lane sends back after `step` steps. */
function state(step: number): TrainingState {
  return {
    model: {} as ModelConfig,
    counters: {
      step,
      skippedSteps: 0,
      manualLevel: null,
      lastLevel: 3,
      previousLevel: null,
      levelSince: 0,
      lastEval: null,
    },
    weights: [],
    optimizer: { step, moments: [] },
  };
}

/**
 * A stand-in for a lane's worker that speaks the lane worker's API over Comlink: each step
 * succeeds, unless `crashAt` says the worker named so fails at that step (an uncaught error).
 */
class ScriptedWorker extends EventTarget {
  static crashAt: (name: string, step: number) => boolean = () => false;
  static starts: { name: string; step: number }[] = [];
  /** The starting policy each init was given to distil to. */
  static bases: (Uint8Array | null)[] = [];
  /** How each worker, by name, tells the page of its events. */
  static emit = new Map<string, (e: LaneEvent) => Promise<void>>();
  private readonly port: MessagePort;

  constructor(_url: URL, opts: WorkerOptions) {
    super();
    const name = opts.name ?? '';
    const { port1, port2 } = new MessageChannel();
    this.port = port2;
    let step = 0;
    const fail = () => this.dispatchEvent(Object.assign(new Event('error'), { message: 'boom' }));
    Comlink.expose(
      {
        holdLock: async () => {},
        init: async (c: LaneConfig, from: LaneStart, onEvent: (e: LaneEvent) => Promise<void>) => {
          ScriptedWorker.emit.set(name, onEvent);
          step = 'state' in from ? from.state.counters.step : from.step;
          ScriptedWorker.starts.push({ name, step });
          ScriptedWorker.bases.push(c.base);
          return {
            backend: 'CPU',
            backendKind: 'cpu',
            fallbackReason: null,
            chosenBecause: null,
            fallbackChosen: false,
            parameters: 1,
          };
        },
        step: async () => {
          if (ScriptedWorker.crashAt(name, step)) {
            setTimeout(fail);
            return new Promise(() => {});
          }
          return { metrics: fakeStep(step), state: state(++step) };
        },
        status: async () => ({ state: 'paused', step, level: 3 }),
        // The trainer's schedule, with a change at step 1 the page never made: the page must
        // record what the trainer says, not work it out again.
        setLevel: async (level: number) => [
          { step: 0, level: 3 },
          { step: 1, level: 2 },
          { step, level },
        ],
      },
      port1,
    );
    port2.start();
  }

  postMessage(message: unknown, transfer: Transferable[] = []): void {
    this.port.postMessage(message, transfer);
  }
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject): void {
    if (type === 'message') this.port.addEventListener(type, listener);
    else super.addEventListener(type, listener);
  }
  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject): void {
    if (type === 'message') this.port.removeEventListener(type, listener);
    else super.removeEventListener(type, listener);
  }
  terminate(): void {
    this.port.close();
  }
}

function lockstep(
  preset: 'quick' | 'listlang' = 'quick',
  base: Uint8Array | null = null,
): { lanes: LockstepLanes; notices: Notices } {
  return quietLockstep(presetConfig(preset), base);
}

async function started(l: LockstepLanes): Promise<void> {
  const gen = l.stop(0, false);
  const from: LaneStart = { checkpoint: new Uint8Array(4), step: 0 };
  expect(await l.launch(gen, [from, from])).toBe(true);
}

const steps = (l: LockstepLanes) => l.lanes.map((lane) => lane.metrics.map((m) => m.step));

describe('lockstep lanes supervise their workers', () => {
  beforeEach(() => {
    vi.stubGlobal('Worker', ScriptedWorker);
    ScriptedWorker.starts = [];
    ScriptedWorker.bases = [];
  });
  afterEach(() => vi.unstubAllGlobals());

  it('a worker that crashes once restarts from the state after its last step; the lanes stay in lockstep', async () => {
    ScriptedWorker.crashAt = (name, step) =>
      name === 'lane B' && step === 2 && ScriptedWorker.starts.length === 2;
    const { lanes: l, notices } = lockstep();
    await started(l);
    for (let i = 0; i < 6; i++) await l.stepOnce();
    expect(ScriptedWorker.starts).toEqual([
      { name: 'lane A', step: 0 },
      { name: 'lane B', step: 0 },
      { name: 'lane B', step: 2 },
    ]);
    expect(notices.list.map((n) => n.message)).toEqual([
      'GRPO + MENTOR: step 2 failed (its worker failed (boom)); it restarted in a fresh worker from its state at step 2 (1 of 2 restarts in a row).',
    ]);
    // One iteration was lane B's alone (its step again); every step once, in both lanes.
    expect(steps(l)).toEqual([
      [0, 1, 2, 3, 4],
      [0, 1, 2, 3, 4],
    ]);
    expect(l.lanes[1].failures).toBe(0);
    l.dispose();
  });

  it('a level change records the schedule the trainers report, which owns it', async () => {
    const config = presetConfig('quick');
    const { lanes: l } = quietLockstep(config);
    await started(l);
    for (let i = 0; i < 3; i++) await l.stepOnce();
    l.setLevel(5);
    await l.stepOnce();
    expect(config.schedule).toEqual([
      { step: 0, level: 3 },
      { step: 1, level: 2 },
      { step: 3, level: 5 },
    ]);
    l.dispose();
  });

  it("a lane's custom mentor that loads clears the notices that said its code could not run", async () => {
    const { lanes: l, notices } = lockstep();
    await started(l);
    const emit = ScriptedWorker.emit.get('lane B') as (e: LaneEvent) => Promise<void>;
    const said = async (fault: boolean, message: string) => {
      await emit({ type: 'custom-mentor', fault, message });
      return notices.list.map((n) => [n.level, n.message]);
    };
    await emit({ type: 'notice', level: 'info', message: 'something else' });
    await said(false, 'has no code to run yet');
    expect(await said(true, 'does not load: Unexpected end of input')).toEqual([
      ['info', 'GRPO + MENTOR: something else'],
      ['warning', 'GRPO + MENTOR: does not load: Unexpected end of input'],
    ]);
    expect(await said(false, '"mine" is loaded')).toEqual([
      ['info', 'GRPO + MENTOR: something else'],
      ['info', 'GRPO + MENTOR: "mine" is loaded'],
    ]);
    l.dispose();
  });

  it('a restarted worker distils to the policy the run started from, as the first one did', async () => {
    ScriptedWorker.crashAt = (name, step) =>
      name === 'lane A' && step === 1 && ScriptedWorker.starts.length === 2;
    const base = Uint8Array.of(7, 1, 7);
    const { lanes: l } = lockstep('listlang', base);
    await started(l);
    for (let i = 0; i < 3; i++) await l.stepOnce();
    expect(ScriptedWorker.starts.map((s) => s.name)).toEqual(['lane A', 'lane B', 'lane A']);
    expect(ScriptedWorker.bases).toEqual([base, base, base]);
    l.dispose();
  });

  it('a pause is done once the step in progress is saved: a reload then resumes from it', async () => {
    const saves: number[] = [];
    let release = () => {};
    const { lanes: l } = quietLockstep(presetConfig('quick'), null, async (step) => {
      saves.push(step);
      await new Promise<void>((r) => (release = r));
    });
    await started(l);
    l.play();
    l.pause();
    await vi.waitFor(() => expect(saves).toEqual([1]));
    // The step has finished, its checkpoint is still being written: not paused yet.
    expect(l.busy).toBe(true);
    release();
    await vi.waitFor(() => expect(l.busy).toBe(false));
    expect(l.step).toBe(1);
    l.dispose();
  });

  it(`after ${MAX_FAILURES_IN_A_ROW} failures in a row a lane stops with a clear message, and the other goes on`, async () => {
    ScriptedWorker.crashAt = (name, step) => name === 'lane A' && step === 1;
    const { lanes: l, notices } = lockstep();
    await started(l);
    for (let i = 0; i < 7; i++) await l.stepOnce();
    expect(ScriptedWorker.starts.filter((s) => s.name === 'lane A')).toEqual([
      { name: 'lane A', step: 0 },
      { name: 'lane A', step: 1 },
      { name: 'lane A', step: 1 },
    ]);
    expect(l.lanes[0].stopped).toBe(true);
    expect(l.lanes[0].error).toBe('its worker failed (boom)');
    expect(notices.list.at(-1)).toMatchObject({
      level: 'error',
      message:
        'GRPO stopped at step 1 after 3 failures in a row: its worker failed (boom). The other lane goes on. Press Reset to start again.',
    });
    expect(steps(l)[0]).toEqual([0]);
    expect(steps(l)[1]).toEqual([0, 1, 2, 3, 4]);
    expect(l.step).toBe(5);
    l.dispose();
  });
});
