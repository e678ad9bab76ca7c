// The one place a run is put together, for a lane's worker and for `npm run experiment` alike:
// its config from the spec, the task's family, and the starting policy loaded again to distil to
// where the run needs it. How the intervention is hosted (in the process, or in a mentor worker)
// stays the caller's.
import type { Backend } from '../engine/backend.ts';
import { loadCheckpoint } from '../model/checkpoint.ts';
import type { Transformer } from '../model/transformer.ts';
import { needsBasePolicy } from '../rl/config.ts';
import type { Intervention } from '../rl/intervention.ts';
import { GrpoTrainer } from '../rl/trainer.ts';
import { familyEntry } from '../tasks/index.ts';
import { runConfig, type RunSpec } from './run-spec.ts';

export interface RunParts {
  backend: Backend;
  /** The policy to train, on `backend`. */
  policy: Transformer;
  intervention: Intervention;
  /** The checkpoint the run started from; needed where it distils or keeps a KL to it. */
  baseCheckpoint: Uint8Array | null;
}

/** The trainer of a run: a spec and its parts. */
export function buildRun(spec: RunSpec, parts: RunParts): GrpoTrainer {
  const config = runConfig(spec);
  let base: Transformer | undefined;
  if (needsBasePolicy(config)) {
    if (!parts.baseCheckpoint)
      throw new Error('this run keeps the policy it started from (distillation, KL): none given');
    base = loadCheckpoint(parts.backend, parts.baseCheckpoint).model;
  }
  return new GrpoTrainer(
    parts.backend,
    parts.policy,
    familyEntry(spec.task).training,
    config,
    parts.intervention,
    { base },
  );
}
