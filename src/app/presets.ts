// Teaching presets: `?preset=<id>` starts from one of these; any other URL parameter overrides a
// field. Levels come from the collapse scenario of src/rl/scenarios.ts (tuned with the shipped
// base policies), never from here.
import { DEFAULT_GRPO } from '../rl/config.ts';
import { COLLAPSE } from '../rl/scenarios.ts';
import {
  collapseLevels,
  type ExperimentConfig,
  type FamilyId,
  type TeachingPresetId,
} from './experiment-config.ts';

export interface TeachingPreset {
  id: TeachingPresetId;
  title: string;
  /** One or two sentences for the picker and the README. */
  description: string;
  config: ExperimentConfig;
}

export const DEFAULT_PRESET: TeachingPresetId = 'collapse';
export const PRESET_IDS: readonly TeachingPresetId[] = [
  'collapse',
  'listlang',
  'baselines',
  'quick',
];

/** Start at the family's easy level; the learner drags the difficulty up by hand. */
export function startSchedule(task: FamilyId): ExperimentConfig['schedule'] {
  return [{ step: 0, level: collapseLevels(task).easy }];
}

function story(task: FamilyId): Omit<ExperimentConfig, 'preset'> {
  return {
    task,
    methods: ['none', 'mentor'],
    seed: 1,
    model: 'tiny',
    schedule: startSchedule(task),
    prompts: DEFAULT_GRPO.prompts,
    groupSize: DEFAULT_GRPO.groupSize,
    lr: DEFAULT_GRPO.lr,
    evalEvery: DEFAULT_GRPO.evalEvery,
    // Smaller than the CLI's 200: an eval pauses both lanes' training while it runs.
    evalSize: 100,
    replay: DEFAULT_GRPO.replayShare,
    keepFailed: COLLAPSE[task].keepFailed,
    speed: 'live',
    backend: 'auto',
    hide: [],
  };
}

const PRESETS: Record<TeachingPresetId, TeachingPreset> = {
  collapse: {
    id: 'collapse',
    title: 'Collapse and recovery (arithmetic)',
    description:
      'GRPO against GRPO + MENTOR on column addition, P=16 prompts × G=8 answers. Train a while at ' +
      'the easy level, then drag the difficulty up one notch.',
    config: { preset: 'collapse', ...story('arithmetic') },
  },
  listlang: {
    id: 'listlang',
    title: 'Collapse and recovery (list programs)',
    description:
      'The same story on listlang: write a program of list ops from input/output examples. Train ' +
      'a while on one-op programs, then raise the difficulty to two ops.',
    config: { preset: 'listlang', ...story('listlang') },
  },
  baselines: {
    id: 'baselines',
    title: 'Static hints against MENTOR',
    description:
      'Both lanes get help: a fixed hint library chosen without looking at the failure, against ' +
      'the mentor that diagnoses each failed group.',
    config: { preset: 'baselines', ...story('arithmetic'), methods: ['static', 'mentor'] },
  },
  quick: {
    id: 'quick',
    title: 'Quick (slow machines, tests)',
    description:
      'Small steps for slow machines and the end-to-end tests: P=4 prompts × G=4 answers, an eval ' +
      'of 24 problems every 4 steps. Noisy, but collapse shows within seconds.',
    config: {
      preset: 'quick',
      ...story('arithmetic'),
      prompts: 4,
      groupSize: 4,
      evalEvery: 4,
      evalSize: 24,
    },
  },
};

export function teachingPreset(id: TeachingPresetId): TeachingPreset {
  return PRESETS[id];
}

export function isPresetId(id: string): id is TeachingPresetId {
  return (PRESET_IDS as readonly string[]).includes(id);
}

/** A fresh copy of a preset's config (callers may change it). */
export function presetConfig(id: TeachingPresetId): ExperimentConfig {
  const c = PRESETS[id].config;
  return {
    ...c,
    methods: [...c.methods],
    schedule: c.schedule.map((x) => ({ ...x })),
    hide: [...c.hide],
  };
}
