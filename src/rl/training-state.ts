import type { ModelConfig } from '../model/config.ts';
import type { OptimizerState } from '../model/optimizer.ts';
import type { NamedTensor } from '../model/safetensors.ts';
import { isSchedule, type LevelChange } from './level-schedule.ts';

/** Where a trainer stands, besides its weights and optimizer. */
export interface TrainerCounters {
  step: number;
  skippedSteps: number;
  /**
   * The schedule the run follows, every live change (the slider) in it; absent in states saved
   * before it was kept, which have `manualLevel` instead.
   */
  schedule?: LevelChange[];
  /** States saved before `schedule`: the latest live level and its step; null if none. */
  manualLevel?: { level: number; from: number } | null;
  lastLevel: number;
  previousLevel: number | null;
  levelSince: number;
  lastEval: number | null;
  /**
   * Every level the run has trained at, in the order met; absent in states saved before it was
   * kept (then the last and the previous level).
   */
  visitedLevels?: number[];
  /** The replay keeper's running success; absent in states saved before it (then 1). */
  replaySuccess?: number;
}

/**
 * Everything a trainer needs to go on exactly as if it had not stopped: the weights, AdamW's
 * moments and step, the counters, and the intervention's own state. Its randomness needs no
 * state of its own: every draw is a function of the seed and the step. Plain data, so it
 * crosses workers (its buffers can be transferred).
 */
export interface TrainingState {
  model: ModelConfig;
  counters: TrainerCounters;
  weights: NamedTensor[];
  optimizer: OptimizerState;
  /** The intervention's saveState(), when it keeps state and answered in time. */
  intervention?: unknown;
}

/** The buffers of a state, to transfer it rather than copy it. */
export function stateBuffers(state: TrainingState): ArrayBuffer[] {
  return [...state.weights, ...state.optimizer.moments].map((t) => t.data.buffer as ArrayBuffer);
}

const count = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0;

/** The counters of a state from elsewhere (a worker, a stored run), checked field by field. */
export function checkCounters(c: TrainerCounters): TrainerCounters {
  const bad = (field: string, v: unknown) =>
    new Error(`training state: ${field} is ${JSON.stringify(v)}`);
  for (const key of ['step', 'skippedSteps', 'lastLevel', 'levelSince'] as const)
    if (!count(c[key])) throw bad(key, c[key]);
  if (c.previousLevel !== null && !count(c.previousLevel))
    throw bad('previousLevel', c.previousLevel);
  if (c.lastEval !== null && !(Number.isFinite(c.lastEval) && c.lastEval >= 0 && c.lastEval <= 1))
    throw bad('lastEval', c.lastEval);
  if (
    c.manualLevel !== undefined &&
    c.manualLevel !== null &&
    !(count(c.manualLevel.level) && count(c.manualLevel.from))
  )
    throw bad('manualLevel', c.manualLevel);
  if (c.schedule !== undefined && !isSchedule(c.schedule)) throw bad('schedule', c.schedule);
  const visited = c.visitedLevels;
  if (
    visited !== undefined &&
    !(Array.isArray(visited) && visited.length > 0 && visited.every(count))
  )
    throw bad('visitedLevels', visited);
  const r = c.replaySuccess;
  if (r !== undefined && !(Number.isFinite(r) && r >= 0 && r <= 1)) throw bad('replaySuccess', r);
  return c;
}
