import { describe, expect, it } from 'vitest';
import { presetCaption } from './preset-caption.ts';
import { CUSTOM_TASK } from './experiment-config.ts';
import { presetConfig, teachingPreset } from './presets.ts';

describe('the preset picker’s caption', () => {
  it('is the preset’s description while the experiment is the preset’s', () => {
    expect(presetCaption(presetConfig('collapse'))).toEqual({
      applies: true,
      text: teachingPreset('collapse').description,
    });
  });

  it('says no preset applies on the person’s own task, rather than describe arithmetic', () => {
    const c = presetCaption({ ...presetConfig('collapse'), task: CUSTOM_TASK });
    expect(c.applies).toBe(false);
    expect(c.text).toMatch(/^No preset: the lanes train on your own task/);
    expect(c.text).not.toMatch(/addition|arithmetic/);
  });

  it('says what changed since the preset: a lane’s method, the task', () => {
    const c = presetCaption({ ...presetConfig('collapse'), methods: ['none', 'custom'] });
    expect(c).toEqual({
      applies: true,
      text: 'Started from the preset “Collapse and recovery (arithmetic)”; changed since: lane B runs GRPO + custom mentor.',
    });
    expect(presetCaption({ ...presetConfig('collapse'), task: 'listlang' }).text).toMatch(
      /changed since: the task is List programs \(listlang\)\.$/,
    );
  });
});
