import { CUSTOM, CUSTOM_TASK, type ExperimentConfig } from '../experiment-config.ts';
import {
  distillationDone,
  plainSettings,
  settingsOfPage,
  type SettingValues,
} from '../../rl/settings.ts';
import type { LaneConfig } from './lane-types.ts';

/** A rollback point every this many steps, for updates skipped in a row (see the lane worker). */
const SNAPSHOT_EVERY = 10;
const MENTOR_DEADLINE_MS = 10_000;

/**
 * What lane `index`'s worker is told: the experiment's settings, with that lane's method (and
 * `mentorCode`, the person's applied code, where it is the custom method), and `base` (the policy
 * the run started from) where distillation to it is on.
 */
export function laneConfig(
  c: ExperimentConfig,
  index: 0 | 1,
  base: Uint8Array | null,
  mentorCode: string | null = null,
  customTask: LaneConfig['customTask'] = null,
): LaneConfig {
  const page: SettingValues = { ...plainSettings(), ...settingsOfPage(c) };
  const settings = { ...page, ...distillationDone(page) };
  const distill = settings.distillCoef;
  if (distill > 0 && !base) throw new Error('distillation needs the policy the run started from');
  return {
    spec: {
      task: c.task,
      method: c.methods[index],
      model: c.model,
      seed: c.seed,
      schedule: c.schedule.map((x) => ({ ...x })),
      settings,
      // A lane runs until it is stopped: no end for the rate to anneal to.
      steps: null,
      teacher: 'own',
      mentorDeadlineMs: MENTOR_DEADLINE_MS,
    },
    customTask: c.task === CUSTOM_TASK ? customTask : null,
    mentorCode: c.methods[index] === CUSTOM ? mentorCode : null,
    backend: c.backend,
    threads: c.threads,
    base: distill > 0 ? base : null,
    snapshotEvery: SNAPSHOT_EVERY,
  };
}
