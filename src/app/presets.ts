// Teaching presets: `?preset=<id>` starts from one of these; any other URL parameter overrides a
// field. Each is the parameters' defaults (experiment-params.ts) with a few changed; levels come
// from the family's collapse scenario (src/tasks/<family>/entry.ts), never from here.
import {
  TEACHING_PRESETS,
  type ExperimentConfig,
  type TeachingPresetId,
} from './experiment-config.ts';
import { defaultConfig } from './experiment-params.ts';

export interface TeachingPreset {
  id: TeachingPresetId;
  title: string;
  /** One or two sentences for the picker and the docs. */
  description: string;
  config: ExperimentConfig;
}

export const DEFAULT_PRESET: TeachingPresetId = 'collapse';
export { TEACHING_PRESETS };

const PRESETS: Record<TeachingPresetId, TeachingPreset> = {
  collapse: {
    id: 'collapse',
    title: 'Collapse and recovery (arithmetic)',
    description:
      'GRPO against GRPO + MENTOR on column addition, P=16 prompts × G=8 answers. Train a while at ' +
      'the easy level, then drag the difficulty up one notch.',
    config: { ...defaultConfig('arithmetic'), preset: 'collapse' },
  },
  listlang: {
    id: 'listlang',
    title: 'Collapse and recovery (list programs)',
    description:
      'The same story on listlang: write a program of list ops from input/output examples. Train ' +
      'a while on one-op programs, then raise the difficulty to two ops.',
    config: { ...defaultConfig('listlang'), preset: 'listlang' },
  },
  worked: {
    id: 'worked',
    title: "Teach, don't tell (worked multiplication)",
    description:
      'The policy multiplies by two digits, writing its own working (two partial products and ' +
      'their sum), and only the product is checked. Raise the difficulty to four-digit numbers: ' +
      'the mentor reads the working, names the first broken step and repeats only what the ' +
      'group got right; it never shows the product.',
    config: { ...defaultConfig('worked'), preset: 'worked' },
  },
  baselines: {
    id: 'baselines',
    title: 'Static hints against MENTOR',
    description:
      'Both lanes get help: a fixed hint library chosen without looking at the failure, against ' +
      'the mentor that diagnoses each failed group.',
    config: { ...defaultConfig('arithmetic'), preset: 'baselines', methods: ['static', 'mentor'] },
  },
  rivals: {
    id: 'rivals',
    title: 'Off-policy rival (list programs)',
    description:
      'Off-policy guidance writes the reference program into each failed group; the mentor ' +
      'diagnoses and hints. One page run is one seed: who gets there first over ten seeds, and ' +
      'at what cost, is in docs/results.md (current standing).',
    config: { ...defaultConfig('listlang'), preset: 'rivals', methods: ['offpolicy', 'mentor'] },
  },
  quick: {
    id: 'quick',
    title: 'Quick (slow machines, tests)',
    description:
      'Small steps for slow machines and the end-to-end tests: P=4 prompts × G=4 answers, an eval ' +
      'of 24 problems every 4 steps. Noisy, but collapse shows within seconds.',
    config: {
      ...defaultConfig('arithmetic'),
      preset: 'quick',
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
  return (TEACHING_PRESETS as readonly string[]).includes(id);
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
