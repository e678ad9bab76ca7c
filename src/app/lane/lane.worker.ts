// One training lane: a GRPO trainer on its own backend, in its own dedicated worker, with the
// mentor (when the lane's method needs one) in a nested mentor worker.
import * as Comlink from 'comlink';
import type { Backend } from '../../engine/backend.ts';
import { createBackend } from '../../engine/create-backend.ts';
import { CpuBackend } from '../../engine/cpu/cpu-backend.ts';
import type { LlmEnabled, LlmProgress, LlmSpec } from '../../interventions/host/worker-api.ts';
import { workerMentor } from '../../interventions/host/mentor-worker.ts';
import { RemoteIntervention } from '../../interventions/host/remote.ts';
import { CUSTOM } from '../../interventions/methods.ts';
import { customMentorNotice } from './custom-mentor-notice.ts';
import { loadTaskCode } from '../custom-task/load-task-code.ts';
import { loadCheckpoint, saveCheckpoint } from '../../model/checkpoint.ts';
import { validateConfig } from '../../model/config.ts';
import { parameterCount } from '../../model/param-spec.ts';
import { ParameterStore } from '../../model/parameters.ts';
import type { NamedTensor } from '../../model/safetensors.ts';
import { stepProbe } from '../../model/step-probe.ts';
import { Transformer } from '../../model/transformer.ts';
import type { LevelChange } from '../../rl/level-schedule.ts';
import { noIntervention, type Intervention } from '../../rl/intervention.ts';
import type { StepMetrics } from '../../rl/metrics.ts';
import { TrainerSession, type SessionStatus } from '../../rl/session.ts';
import { GrpoTrainer } from '../../rl/trainer.ts';
import type { TrainingState } from '../../rl/training-state.ts';
import { buildRun } from '../../run/build-run.ts';
import type { RolloutGroup } from '../../rl/rollouts.ts';
import { disableLaneLlm, enableLaneLlm } from './lane-llm.ts';
import type { LaneConfig, LaneEvent, LaneInfo } from './lane-types.ts';
import { ROLLBACK_AFTER_SKIPS, rolledBack, SkipGuard } from './skip-guard.ts';
import { chooseByMeasuring } from './measured-backend.ts';
import { lanePool, poolNote } from './lane-threads.ts';
import { softwareAdapter } from './software-adapter.ts';

/** Weights at a step: where a lane goes back to after updates skipped in a row. */
interface RollbackPoint {
  step: number;
  tensors: NamedTensor[];
}

let config: LaneConfig | null = null;
let listener: ((e: LaneEvent) => void) | null = null;
let backend: Backend | null = null;
let model: Transformer | null = null;
let trainer: GrpoTrainer | null = null;
let session: TrainerSession | null = null;
let intervention: Intervention = noIntervention;
/** The lane's whole state after its latest step: a lost device costs at most the step in flight. */
let latest: TrainingState | null = null;
let rollbackPoint: RollbackPoint | null = null;
/** Device-loss recovery in progress: commands wait for it. */
let recovering: Promise<void> | null = null;
/** Recoveries so far: a step that failed while one happened is run again on the new backend. */
let recoveries = 0;
/** Skipped updates (a loss or gradient that was not finite): a notice each, a rollback in a row. */
let skips = new SkipGuard();

function emit(e: LaneEvent): void {
  listener?.(e);
}

function notice(level: 'info' | 'warning' | 'error', message: string): void {
  emit({ type: 'notice', level, message });
}

/**
 * The lane's backend, why WebGPU is not used (where it is not), whether that was the page's
 * choice rather than a fault, and why this one was chosen where it was timed.
 */
interface LaneBackend {
  be: Backend;
  reason: string | null;
  chosen: boolean;
  why: string | null;
}

/**
 * The backend `c` asks for. With `auto` on a hardware adapter both are timed on a step of `policy`
 * (a throwaway copy on each) and the faster kept; a software adapter is slower than the CPU twin
 * without measuring.
 */
async function chooseBackend(
  c: LaneConfig,
  policy: (be: Backend) => Transformer,
): Promise<LaneBackend> {
  if (c.backend === 'auto') {
    const software = await softwareAdapter(navigator.gpu);
    if (software) {
      return {
        be: new CpuBackend(),
        reason: `the WebGPU adapter is a software one (${software}), slower than the CPU twin; add ?backend=webgpu to use it anyway`,
        chosen: true,
        why: null,
      };
    }
  }
  const choice = await createBackend(c.backend, navigator.gpu);
  if (c.backend !== 'auto' || choice.fallbackReason !== null)
    return { be: choice.backend, reason: choice.fallbackReason, chosen: false, why: null };
  const measured = await chooseByMeasuring([choice.backend, new CpuBackend()], async (be) => {
    const copy = policy(be);
    const probe = stepProbe(copy);
    return {
      run: probe.run,
      free: () => {
        probe.free();
        copy.free();
      },
    };
  });
  return { be: measured.chosen, reason: null, chosen: false, why: measured.why };
}

/**
 * After a step: the lane's whole state (one read back), which the page keeps too, so a fresh
 * worker can go on from it; every snapshotEvery steps, a rollback point. A snapshot that fails is
 * reported, and the previous one stays.
 */
async function takeSnapshot(): Promise<TrainingState | null> {
  const t = trainer;
  if (!t || !config) return null;
  const problems: string[] = [];
  try {
    latest = await t.saveState(problems);
  } catch (e) {
    problems.push(`it could not be read (${(e as Error).message})`);
  }
  for (const p of problems)
    notice(
      'warning',
      `The snapshot after step ${t.step}: ${p}; a restart would go on from step ${latest?.counters.step ?? 'the start'}.`,
    );
  if (latest && latest.counters.step === t.step && t.step % config.snapshotEvery === 0)
    rollbackPoint = { step: t.step, tensors: latest.weights };
  return latest;
}

/** Build trainer and session around `m` on `be`, at `step` or, given one, from a training state. */
async function start(
  c: LaneConfig,
  be: Backend,
  m: Transformer,
  from: { step: number } | { state: TrainingState },
): Promise<void> {
  backend = be;
  model = m;
  // The policy distilled to lives on the lane's backend too: after a lost device, on the new one.
  trainer = buildRun(c.spec, { backend: be, policy: m, intervention, baseCheckpoint: c.base });
  if ('state' in from) {
    const problems: string[] = [];
    await trainer.restoreState(from.state, problems);
    for (const p of problems) notice('warning', `The mentor's statistics start afresh: ${p}.`);
  } else trainer.step = from.step;
  session = new TrainerSession(trainer, {
    onStatus: (status: SessionStatus) => emit({ type: 'status', status }),
  });
  be.onDeviceLost((e) => {
    if (!recovering) recoveries++;
    recovering ??= recover(
      `the GPU device was lost (${e.reason}${e.message ? `: ${e.message}` : ''})`,
    )
      .catch((err) => notice('error', `Could not resume: ${(err as Error).message}`))
      .finally(() => (recovering = null));
  });
}

function info({ be, reason, chosen, why }: LaneBackend, m: Transformer): LaneInfo {
  return {
    backend: be.name,
    threads: be.kind === 'cpu' ? poolNote() : null,
    backendKind: be.kind,
    fallbackReason: reason,
    fallbackChosen: chosen,
    chosenBecause: why,
    parameters: parameterCount(m.config),
  };
}

/** The model of a training state, on `be` (its weights fully checked). */
function modelOf(be: Backend, state: TrainingState): Transformer {
  return new Transformer(
    be,
    ParameterStore.fromTensors(be, validateConfig(state.model), state.weights),
  );
}

/** After device loss: a new backend, and on from the state after the last step. */
async function recover(why: string): Promise<void> {
  const c = config;
  const state = latest;
  if (!c || !state) return;
  session?.stop();
  const step = state.counters.step;
  notice('warning', `${why}. Resuming at step ${step}, from the state the lane had there.`);
  const chosen = await chooseBackend(c, (be) => modelOf(be, state));
  const restored = modelOf(chosen.be, state);
  // The lane's start schedule holds every live level change: the resumed trainer follows it.
  await start(c, chosen.be, restored, { state });
  if (chosen.reason) notice('info', `Now on the CPU backend: ${chosen.reason}`);
  emit({ type: 'resumed', step, info: info(chosen, restored) });
}

/**
 * Updates skipped in a row: the weights go back to the rollback point (finite, since a skipped
 * update changes none), with a fresh AdamW, and training goes on from the same step,
 * so the lanes stay in lockstep.
 */
async function rollBack(): Promise<void> {
  const [point, t] = [rollbackPoint, trainer];
  if (!point || !t) return;
  await t.restoreState(rolledBack(await t.saveState(), point.tensors));
  notice(
    'warning',
    `${ROLLBACK_AFTER_SKIPS} updates in a row were skipped (a loss or gradient that was not finite): the weights went back to those at the start of step ${point.step}, with a fresh AdamW; training goes on from step ${t.step}.`,
  );
}

function need(): TrainerSession {
  if (!session) throw new Error('lane worker: init() first');
  return session;
}

/**
 * A step failed: if the device was lost, wait for the resume and run the step there. The loss
 * may be noticed before the step fails (the resume may even be over) or just after it.
 */
async function afterFailure(recoveriesBefore: number): Promise<boolean> {
  for (let i = 0; i < 40 && !recovering && recoveries === recoveriesBefore; i++)
    await new Promise((r) => setTimeout(r, 50));
  await recovering;
  return recoveries !== recoveriesBefore;
}

/** A step's metrics and the lane's whole state after it (a copy: the worker keeps its own). */
export interface LaneStep {
  metrics: StepMetrics;
  state: TrainingState | null;
}

const api = {
  /**
   * Hold the lock `name` for the worker's whole life: the page asks for it too, and gets it only
   * when this worker is gone, however it went (closed, crashed, killed by the browser).
   */
  async holdLock(name: string): Promise<void> {
    if (!navigator.locks) return;
    await new Promise<void>((held) => {
      void navigator.locks.request(name, () => {
        held();
        return new Promise<never>(() => {});
      });
    });
  },
  /**
   * Get ready: from a checkpoint that has done `from.step` steps (a base, or a saved run), or
   * from a training state a lane sent earlier (a restarted worker goes on exactly from there).
   */
  async init(
    c: LaneConfig,
    from: { checkpoint: Uint8Array; step: number } | { state: TrainingState },
    onEvent: (e: LaneEvent) => void,
  ): Promise<LaneInfo> {
    config = c;
    listener = onEvent;
    skips = new SkipGuard();
    latest = null;
    rollbackPoint = null;
    // The person's task runs here, in the lane's worker, never on the page: checked again (the
    // page checked it under a deadline before it sent it), then registered for the trainer.
    if (c.customTask) {
      try {
        await loadTaskCode(c.customTask.code, c.spec.model);
      } catch (e) {
        throw new Error(`the custom task cannot be used: ${(e as Error).message}`, { cause: e });
      }
    }
    const policy = (be: Backend) =>
      'state' in from ? modelOf(be, from.state) : loadCheckpoint(be, from.checkpoint).model;
    lanePool(c.threads);
    const chosen = await chooseBackend(c, policy);
    const be = chosen.be;
    const m = policy(be);
    const { method, task, seed } = c.spec;
    if (method === 'none') intervention = noIntervention;
    else {
      const spec = method === CUSTOM ? { code: c.mentorCode, task } : method;
      const remote = new RemoteIntervention(
        spec,
        seed,
        () => workerMentor(method === CUSTOM),
        c.customTask?.info ?? null,
      );
      remote.onLlmLost = (message) => emit({ type: 'llm-lost', message });
      if (method === CUSTOM) {
        // A restart loads the same code again: its fault is told once, not at every restart.
        let told: string | null = null;
        remote.onConfigured = (loaded) => {
          const message = customMentorNotice(loaded);
          if (message !== told) emit({ type: 'custom-mentor', fault: !loaded.ok, message });
          told = message;
        };
      }
      intervention = remote;
    }
    await start(c, be, m, 'state' in from ? { state: from.state } : { step: from.step });
    const first = await takeSnapshot();
    if (first) rollbackPoint = { step: first.counters.step, tensors: first.weights };
    return info(chosen, m);
  },
  /**
   * One step and the state after it. After a device loss the lane resumes from the last state
   * and runs the step there; updates skipped in a row roll it back (see rollBack).
   */
  async step(): Promise<LaneStep | null> {
    await recovering;
    const before = recoveries;
    let m = await need().step();
    if (m === null && (await afterFailure(before))) m = await need().step();
    if (m === null) return null;
    const verdict = skips.observe(m);
    if (verdict.notice) notice('warning', verdict.notice);
    if (verdict.rollback) await rollBack();
    await takeSnapshot();
    return { metrics: m, state: latest };
  },
  /** The custom method's new code (null: none): a fresh mentor worker, from the next step on. */
  async setMentorCode(code: string | null): Promise<void> {
    await recovering;
    if (!(intervention instanceof RemoteIntervention) || intervention.name !== CUSTOM)
      throw new Error("this lane's method runs no code");
    intervention.setCode(code);
    trainer?.interventionChanged();
  },
  /**
   * The level from the next step on, overriding the rest of the schedule; the schedule the
   * trainer now follows comes back, for the page to record (its one owner is the trainer).
   */
  async setLevel(level: number): Promise<LevelChange[]> {
    await recovering;
    need().setLevel(level);
    const followed = (trainer as GrpoTrainer).followedSchedule;
    // A trainer built again (after a lost device) follows it from the state after the last step.
    if (config) config.spec.schedule = followed;
    return followed;
  },
  async status(): Promise<SessionStatus> {
    await recovering;
    return need().status();
  },
  rollouts: (): RolloutGroup[] => need().rollouts(),
  async exportCheckpoint(): Promise<Uint8Array> {
    await recovering;
    if (!model || !trainer || !config) throw new Error('lane worker: init() first');
    const bytes = await saveCheckpoint(model, {
      task: config.spec.task,
      method: config.spec.method,
      step: String(trainer.step),
    });
    return Comlink.transfer(bytes, [bytes.buffer]);
  },
  /**
   * The opt-in LLM mentor: load a language model into this lane's mentor team (lanes whose
   * method is `mentor`); `onProgress` hears of the download. A failure is a message; the mentor
   * goes on with its rules either way, and training never waits for the load.
   */
  enableLlm: (spec: LlmSpec, onProgress?: LlmProgress): Promise<LlmEnabled> =>
    enableLaneLlm(intervention, spec, onProgress),
  disableLlm: (): Promise<void> => disableLaneLlm(intervention),
  /** Test hook: lose the device on purpose (WebGPU only). */
  loseDevice(): boolean {
    const be = backend as (Backend & { device?: GPUDevice }) | null;
    if (!be?.device) return false;
    be.device.destroy();
    return true;
  },
};

export type LaneApi = typeof api;

Comlink.expose(api);
