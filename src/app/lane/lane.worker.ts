// One training lane: a GRPO trainer on its own backend, in its own dedicated worker, with the
// mentor (when the lane's method needs one) in a nested mentor worker.
import * as Comlink from 'comlink';
import type { Backend } from '../../engine/backend.ts';
import { createBackend } from '../../engine/create-backend.ts';
import { CpuBackend } from '../../engine/cpu/cpu-backend.ts';
import type { LlmEnabled, LlmProgress, LlmSpec } from '../../mentor/api.ts';
import { RemoteIntervention, workerMentor } from '../../mentor/remote.ts';
import { loadCheckpoint, saveCheckpoint } from '../../model/checkpoint.ts';
import { parameterCount } from '../../model/param-spec.ts';
import { ParameterStore } from '../../model/parameters.ts';
import type { NamedTensor } from '../../model/safetensors.ts';
import { Transformer } from '../../model/transformer.ts';
import { DEFAULT_GRPO, type GrpoConfig } from '../../rl/config.ts';
import type { LevelChange } from '../../rl/level-schedule.ts';
import { noIntervention, type Intervention } from '../../rl/intervention.ts';
import type { StepMetrics } from '../../rl/metrics.ts';
import { TrainerSession, type SessionStatus } from '../../rl/session.ts';
import { GrpoTrainer } from '../../rl/trainer.ts';
import { familyEntry } from '../../tasks/index.ts';
import type { RolloutGroup } from '../../rl/rollouts.ts';
import { disableLaneLlm, enableLaneLlm } from './lane-llm.ts';
import type { LaneConfig, LaneEvent, LaneInfo } from './lane-types.ts';
import { ROLLBACK_AFTER_SKIPS, SkipGuard } from './skip-guard.ts';
import { softwareAdapter } from './software-adapter.ts';

interface Snapshot {
  step: number;
  level: number;
  tensors: NamedTensor[];
}

let config: LaneConfig | null = null;
let listener: ((e: LaneEvent) => void) | null = null;
let backend: Backend | null = null;
let model: Transformer | null = null;
let trainer: GrpoTrainer | null = null;
let session: TrainerSession | null = null;
let intervention: Intervention = noIntervention;
let snapshot: Snapshot | null = null;
/** A snapshot being taken: steps wait for it, so a snapshot never mixes two steps' weights. */
let snapshotting: Promise<void> | null = null;
/** Device-loss recovery in progress: commands wait for it. */
let recovering: Promise<void> | null = null;
/** Recoveries so far: a step that failed while one happened is run again on the new backend. */
let recoveries = 0;
/** The lane's schedule with the live level changes made so far: a resumed trainer follows it. */
let schedule: LevelChange[] = [];
/** Skipped updates (a loss or gradient that was not finite): a notice each, a rollback in a row. */
let skips = new SkipGuard();

function emit(e: LaneEvent): void {
  listener?.(e);
}

async function chooseBackend(c: LaneConfig): Promise<{ be: Backend; reason: string | null }> {
  if (c.backend === 'auto') {
    const software = await softwareAdapter(navigator.gpu);
    if (software) {
      return {
        be: new CpuBackend(),
        reason: `the WebGPU adapter is a software one (${software}), slower than the CPU twin; add ?backend=webgpu to use it anyway`,
      };
    }
  }
  const choice = await createBackend(c.backend, navigator.gpu);
  return { be: choice.backend, reason: choice.fallbackReason };
}

function grpoConfig(c: LaneConfig): GrpoConfig {
  return {
    ...DEFAULT_GRPO,
    task: c.task,
    model: c.model,
    seed: c.seed,
    schedule,
    prompts: c.prompts,
    groupSize: c.groupSize,
    lr: c.lr,
    evalEvery: c.evalEvery,
    evalSize: c.evalSize,
    replay: c.replay,
    replayLevel: c.replay > 0 ? c.schedule[0].level : null,
    keepFailed: c.keepFailed,
    mentorDeadlineMs: c.mentorDeadlineMs,
  };
}

async function takeSnapshot(): Promise<void> {
  if (!model || !trainer) return;
  snapshot = { step: trainer.step, level: trainer.level, tensors: await model.params.toTensors() };
}

/** Build trainer and session around `m` on `be`, continuing from `step` at `level`. */
function start(
  c: LaneConfig,
  be: Backend,
  m: Transformer,
  step: number,
  level: number | null,
): void {
  backend = be;
  model = m;
  const skipped = trainer?.skippedSteps ?? 0;
  trainer = new GrpoTrainer(be, m, familyEntry(c.task).training, grpoConfig(c), intervention);
  trainer.step = step;
  trainer.skippedSteps = skipped;
  if (level !== null && level !== trainer.level) trainer.setLevel(level);
  session = new TrainerSession(trainer, {
    onStep: (metrics: StepMetrics) => {
      emit({ type: 'step', metrics });
      const verdict = skips.observe(metrics);
      if (verdict.notice) emit({ type: 'notice', level: 'warning', message: verdict.notice });
      if (verdict.rollback) recovering ??= rollBack().finally(() => (recovering = null));
      if (trainer && trainer.step % c.snapshotEvery === 0)
        snapshotting = takeSnapshot()
          .catch(() => {})
          .finally(() => (snapshotting = null));
    },
    onStatus: (status: SessionStatus) => emit({ type: 'status', status }),
  });
  be.onDeviceLost((e) => {
    if (!recovering) recoveries++;
    recovering ??= recover(
      `the GPU device was lost (${e.reason}${e.message ? `: ${e.message}` : ''})`,
    )
      .catch((err) =>
        emit({
          type: 'notice',
          level: 'error',
          message: `Could not resume: ${(err as Error).message}`,
        }),
      )
      .finally(() => (recovering = null));
  });
}

function info(be: Backend, reason: string | null, m: Transformer): LaneInfo {
  return {
    backend: be.name,
    backendKind: be.kind,
    fallbackReason: reason,
    parameters: parameterCount(m.config),
  };
}

/** After device loss: a new backend, the weights of the last snapshot, and on we go. */
async function recover(why: string): Promise<void> {
  const c = config;
  const snap = snapshot;
  if (!c || !snap || !model) return;
  const arch = model.config;
  await rebuilding(async () => {
    emit({
      type: 'notice',
      level: 'warning',
      message: `${why}. Resuming from the snapshot at step ${snap.step}.`,
    });
    const { be, reason } = await chooseBackend(c);
    const restored = fromSnapshot(be, arch, snap);
    // The schedule holds every live level change, so the resumed trainer replays them too.
    start(c, be, restored, snap.step, null);
    if (reason)
      emit({ type: 'notice', level: 'info', message: `Now on the CPU backend: ${reason}` });
    emit({ type: 'resumed', step: snap.step, info: info(be, reason, restored) });
  });
}

/**
 * Updates skipped in a row: the weights go back to the last snapshot (taken from finite weights,
 * since a skipped update changes none), with a fresh optimizer, and training goes on from the
 * same step, so the lanes stay in lockstep.
 */
async function rollBack(): Promise<void> {
  const c = config;
  const snap = snapshot;
  const be = backend;
  const [old, was] = [model, trainer];
  if (!c || !snap || !be || !old || !was) return;
  await rebuilding(() => {
    const { step, level } = was;
    was.free();
    old.free();
    start(c, be, fromSnapshot(be, old.config, snap), step, level);
    emit({
      type: 'notice',
      level: 'warning',
      message: `${ROLLBACK_AFTER_SKIPS} updates in a row were skipped (a loss or gradient that was not finite): the weights went back to the snapshot of step ${snap.step}, with a fresh optimizer; training goes on from step ${step}.`,
    });
  });
}

/** Stop the session, let `rebuild` start a new one, and play again if it was playing. */
async function rebuilding(rebuild: () => Promise<void> | void): Promise<void> {
  const wasRunning = session?.status().state === 'running';
  session?.stop();
  await rebuild();
  if (wasRunning) session?.play();
}

function fromSnapshot(be: Backend, c: Transformer['config'], snap: Snapshot): Transformer {
  return new Transformer(be, ParameterStore.fromTensors(be, c, snap.tensors));
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

const api = {
  /** Load the checkpoint and get ready at `startStep` (steps already done: resuming a saved run). */
  async init(
    c: LaneConfig,
    checkpoint: Uint8Array,
    onEvent: (e: LaneEvent) => void,
    startStep = 0,
  ): Promise<LaneInfo> {
    config = c;
    listener = onEvent;
    schedule = c.schedule.map((x) => ({ ...x }));
    skips = new SkipGuard();
    const { be, reason } = await chooseBackend(c);
    const { model: m } = loadCheckpoint(be, checkpoint);
    if (c.method === 'none') intervention = noIntervention;
    else {
      const remote = new RemoteIntervention(c.method, c.seed, workerMentor);
      remote.onLlmLost = (message) => emit({ type: 'llm-lost', message });
      intervention = remote;
    }
    start(c, be, m, startStep, null);
    await takeSnapshot();
    return info(be, reason, m);
  },
  play: () => need().play(),
  pause: () => need().pause(),
  /** One step; after a device loss it resumes from the snapshot and steps from there. */
  async step(): Promise<StepMetrics | null> {
    await recovering;
    const before = recoveries;
    let m = await need().step();
    if (m === null && (await afterFailure(before))) m = await need().step();
    await snapshotting;
    return m;
  },
  stop: () => need().stop(),
  async setLevel(level: number): Promise<void> {
    await recovering;
    need().setLevel(level);
    // From the next step on; it overrides the rest of the schedule, as the trainer's live level does.
    const from = trainer?.step ?? 0;
    schedule = [...schedule.filter((x) => x.step < from), { step: from, level }];
  },
  async status(): Promise<SessionStatus> {
    await recovering;
    return need().status();
  },
  rollouts: (): RolloutGroup[] => need().rollouts(),
  async exportCheckpoint(): Promise<Uint8Array> {
    await recovering;
    await snapshotting;
    if (!model || !trainer || !config) throw new Error('lane worker: init() first');
    const bytes = await saveCheckpoint(model, {
      task: config.task,
      method: config.method,
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
