import type { BackendPreference } from '../../engine/create-backend.ts';
import type { LaneMethod } from '../../interventions/methods.ts';
import type { RunSpec } from '../../run/run-spec.ts';
import type { SessionStatus } from '../../rl/session.ts';
import type { TaskInfo } from '../../tasks/custom/task-info.ts';
import type { PageTask } from '../experiment-config.ts';

/**
 * Everything a lane needs to start training; plain data (it crosses into the worker). Its run is
 * a RunSpec, as a command-line run's is (src/run/run-spec.ts): the page's settings, the distillation
 * the run really does (distillationDone), the rest the trainer's defaults.
 */
export interface LaneConfig {
  spec: RunSpec<PageTask, LaneMethod>;
  /** The custom task's code and account (task `custom`), checked on the page's side; else null. */
  customTask: { code: string; info: TaskInfo } | null;
  /** The custom method's code, applied by the person; null until then (the lane gets no help). */
  mentorCode: string | null;
  backend: BackendPreference;
  /** Threads the CPU twin's kernels split across (a pool, where the page is isolated); 0: auto. */
  threads: number;
  /** The policy the run started from (a checkpoint), where it distils to it; else null. */
  base: Uint8Array | null;
  /** A rollback point (weights) every this many steps, for updates skipped in a row. */
  snapshotEvery: number;
}

export interface LaneInfo {
  backend: string;
  backendKind: 'cpu' | 'webgpu';
  /** Why the lane is not on WebGPU, when it is not and WebGPU was wanted. */
  fallbackReason: string | null;
  /** Why this backend, where the page chose it by timing a step on each; else null. */
  chosenBecause: string | null;
  /** The page chose the CPU on purpose (faster than a software WebGPU adapter): not a fault. */
  fallbackChosen: boolean;
  /** On the CPU: its threads, "2 threads" or "one thread (why)"; null on WebGPU. */
  threads: string | null;
  parameters: number;
}

export type LaneEvent =
  | { type: 'status'; status: SessionStatus }
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; message: string }
  /** A mentor worker loaded the custom method's code, or says why it cannot (`fault`). */
  | { type: 'custom-mentor'; fault: boolean; message: string }
  /** The mentor's language model is switched off for good (it could not come back after restarts). */
  | { type: 'llm-lost'; message: string }
  /** After device loss: the lane runs again, from the snapshot taken after `step` steps. */
  | { type: 'resumed'; step: number; info: LaneInfo };
