import { describe, expect, it } from 'vitest';
import { laneConfig } from '../app/lane/lane-config.ts';
import { presetConfig } from '../app/presets.ts';
import { CpuBackend } from '../engine/cpu/cpu-backend.ts';
import { noIntervention } from '../rl/intervention.ts';
import { DEFAULT_GRPO } from '../rl/config.ts';
import { saveCheckpoint } from '../model/checkpoint.ts';
import { Transformer } from '../model/transformer.ts';
import { TEST_MODEL_CONFIG } from '../rl/testing/test-model-config.ts';
import { buildRun } from './build-run.ts';
import { methodRunsOn, runConfig } from './run-spec.ts';

describe('a run spec', () => {
  it("makes a lane's trainer config by the same rule as the command line's", () => {
    const c = presetConfig('listlang');
    const { spec } = laneConfig(
      { ...c, methods: ['offpolicy-full', 'mentor'] },
      0,
      Uint8Array.of(1),
    );
    const config = runConfig(spec);
    expect(config).toMatchObject({
      task: 'listlang',
      seed: c.seed,
      schedule: c.schedule,
      groupSize: c.groupSize,
      distillCoef: c.distill,
      replayLevel: c.schedule[0].level,
      // A lane runs until stopped: the rate never anneals; what the page does not set is default.
      lrDecay: null,
      offPolicyGamma: DEFAULT_GRPO.offPolicyGamma,
      innerEpochs: DEFAULT_GRPO.innerEpochs,
      mentorDeadlineMs: 10_000,
      // LUFFY as published does not divide by the group's std.
      scaleRewards: false,
    });
    expect(Object.keys(config)).toEqual([...Object.keys(DEFAULT_GRPO), 'task', 'schedule']);
  });

  it('is refused where its settings do not go together, by the rule the command line uses', () => {
    const { spec } = laneConfig(presetConfig('collapse'), 0, null);
    const be = new CpuBackend();
    const parts = {
      backend: be,
      policy: Transformer.create(be, TEST_MODEL_CONFIG, 3),
      intervention: noIntervention,
      baseCheckpoint: null,
    };
    const broken = { ...spec, settings: { ...spec.settings, keepFailed: spec.settings.groupSize } };
    expect(() => buildRun(broken, parts)).toThrow(/keepFailed must be below groupSize/);
  });

  it('builds the trainer, with the starting checkpoint where the run distils to it', async () => {
    const { spec } = laneConfig(presetConfig('listlang'), 0, Uint8Array.of(1));
    const be = new CpuBackend();
    const policy = Transformer.create(be, TEST_MODEL_CONFIG, 3);
    const parts = { backend: be, policy, intervention: noIntervention };
    expect(() => buildRun(spec, { ...parts, baseCheckpoint: null })).toThrow(
      /keeps the policy it started from \(distillation, KL\): none given/,
    );
    const baseCheckpoint = await saveCheckpoint(policy, {});
    const trainer = buildRun(spec, { ...parts, baseCheckpoint });
    expect(trainer.config).toEqual(runConfig(spec));
  });

  it('runs a method made of working only where the task writes working', () => {
    expect(methodRunsOn('teacher-working', 'worked')).toBe(true);
    expect(methodRunsOn('teacher-working', 'arithmetic')).toBe(false);
    expect(methodRunsOn('mentor', 'arithmetic')).toBe(true);
  });
});
