// Lockstep lanes for tests, their hooks doing nothing but what a test sets: the config, the base,
// and where saving matters, how a checkpoint is saved.
import type { ExperimentConfig } from '../experiment-config.ts';
import { LockstepLanes } from '../lockstep-lanes.svelte.ts';
import type { RunPersistence } from '../run-persistence.ts';
import { Notices } from '../notices.svelte.ts';

export function quietLockstep(
  config: ExperimentConfig,
  base: Uint8Array | null = null,
  saveCheckpoints: RunPersistence['saveCheckpoints'] = async () => {},
): { lanes: LockstepLanes; notices: Notices } {
  const notices = new Notices();
  const lanes = new LockstepLanes({
    config: () => config,
    base: () => base,
    mentorCode: () => null,
    notices,
    llm: { lanesStopping: () => {}, lanesReady: () => {}, lost: () => {} },
    redraw: () => {},
    saved: { forgetSteps: async () => {}, saveCheckpoints, flush: async () => {} },
    scheduleChanged: () => {},
    customReport: () => {},
    customTask: () => null,
  });
  return { lanes, notices };
}
