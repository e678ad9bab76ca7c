import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { familyEntry } from '../tasks/index.ts';
import { TEACHING_PRESETS, isPresetId, presetConfig, teachingPreset } from './presets.ts';
import { ExperimentSchema } from './url-state.ts';

describe('teaching presets', () => {
  it('each is a valid experiment that names itself', () => {
    for (const id of TEACHING_PRESETS) {
      const c = presetConfig(id);
      expect(c.preset).toBe(id);
      expect(v.safeParse(ExperimentSchema, c).success).toBe(true);
      expect(teachingPreset(id).title.length).toBeGreaterThan(5);
      expect(isPresetId(id)).toBe(true);
    }
    expect(isPresetId('nope')).toBe(false);
  });

  it('start at the easy level of the family’s collapse scenario', () => {
    for (const id of TEACHING_PRESETS) {
      const c = presetConfig(id);
      expect(c.schedule).toEqual([{ step: 0, level: familyEntry(c.task).collapse.easy }]);
    }
  });

  it('compare GRPO with MENTOR by default, static hints in `baselines`, the rival in `rivals`', () => {
    expect(presetConfig('collapse').methods).toEqual(['none', 'mentor']);
    expect(presetConfig('listlang').task).toBe('listlang');
    expect(presetConfig('worked')).toMatchObject({ task: 'worked', methods: ['none', 'mentor'] });
    expect(presetConfig('baselines').methods).toEqual(['static', 'mentor']);
    expect(presetConfig('rivals').methods).toEqual(['offpolicy', 'mentor']);
  });

  it('`quick` is small: few prompts and answers, frequent small evals', () => {
    const q = presetConfig('quick');
    expect(q.prompts * q.groupSize).toBeLessThanOrEqual(16);
    expect(q.evalEvery).toBeLessThanOrEqual(5);
    expect(q.evalSize).toBeLessThanOrEqual(32);
  });

  it('hands out copies', () => {
    const a = presetConfig('collapse');
    a.methods[0] = 'static';
    a.schedule.push({ step: 5, level: 4 });
    expect(presetConfig('collapse').methods[0]).toBe('none');
    expect(presetConfig('collapse').schedule).toHaveLength(1);
  });
});
