import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { getFamily } from '../tasks/index.ts';
import { HIDEABLE } from './experiment-config.ts';
import { NUMERIC_PARAMS as LIMITS } from './experiment-params.ts';
import { TEACHING_PRESETS, presetConfig } from './presets.ts';
import {
  ExperimentSchema,
  MAX_QUERY_LENGTH,
  decodeUrl,
  encodeUrl,
  quote,
  sameExperiment,
} from './url-state.ts';

describe('URL codec', () => {
  it('an empty query is the default preset, with no notices', () => {
    const d = decodeUrl('');
    expect(d.config).toEqual(presetConfig('collapse'));
    expect(d.notices).toEqual([]);
    expect(d.explicit).toBe(false);
  });

  it('round-trips every preset and a fully customised experiment', () => {
    for (const id of TEACHING_PRESETS) {
      const c = presetConfig(id);
      const d = decodeUrl(encodeUrl(c));
      expect(d.config).toEqual(c);
      expect(d.notices).toEqual([]);
      expect(d.explicit).toBe(true);
    }
    const custom = {
      ...presetConfig('quick'),
      task: 'listlang' as const,
      methods: ['prefix', 'static'] as ['prefix', 'static'],
      seed: 123456,
      model: 'small' as const,
      schedule: [
        { step: 0, level: 2 },
        { step: 40, level: 3 },
        { step: 90, level: 1 },
      ],
      prompts: 12,
      groupSize: 6,
      lr: 3e-5,
      evalEvery: 7,
      evalSize: 33,
      replay: 0.125,
      keepFailed: 5,
      speed: 'turbo' as const,
      backend: 'cpu' as const,
      hide: ['method', 'task', 'speed'] as ('method' | 'task' | 'speed')[],
    };
    const q = encodeUrl(custom);
    expect(q).toContain('methods=prefix,static');
    expect(q).toContain('schedule=0:2,40:3,90:1');
    expect(q).toContain('hide=method,task,speed');
    const d = decodeUrl(q);
    expect(d.notices).toEqual([]);
    expect(d.config).toEqual(custom);
  });

  it('a preset gives defaults that other parameters override', () => {
    const d = decodeUrl('?preset=baselines&seed=9');
    expect(d.config.methods).toEqual(['static', 'mentor']);
    expect(d.config.seed).toBe(9);
    expect(d.notices).toEqual([]);
  });

  it('changing the task moves the fields that follow it to that task’s defaults', () => {
    const d = decodeUrl('?task=listlang');
    expect(d.config.schedule).toEqual(presetConfig('listlang').schedule);
    expect(d.config.keepFailed).toBe(presetConfig('listlang').keepFailed);
    expect(d.config.keepFailed).toBeGreaterThan(presetConfig('collapse').keepFailed);
    expect(d.notices).toEqual([]);
    const explicit = decodeUrl('?task=listlang&keep_failed=1&schedule=0:1,10:3');
    expect(explicit.config.keepFailed).toBe(1);
    expect(explicit.config.schedule).toEqual([
      { step: 0, level: 1 },
      { step: 10, level: 3 },
    ]);
  });

  it('reads the old name of a renamed parameter and writes the new one', () => {
    const d = decodeUrl('?group=6');
    expect(d.config.groupSize).toBe(6);
    expect(d.notices).toEqual([]);
    expect(encodeUrl(d.config)).toContain('group_size=6');
    expect(encodeUrl(d.config)).not.toMatch(/[?&]group=/);
    expect(decodeUrl('?group_size=5&group=7').config.groupSize).toBe(5);
  });

  it('clamps huge, tiny and fractional numbers and says so', () => {
    const d = decodeUrl('?seed=1e999&prompts=0&group_size=2.6&lr=5&eval_size=-3&replay=0.9');
    expect(d.config.seed).toBe(LIMITS.seed.max);
    expect(d.config.prompts).toBe(LIMITS.prompts.min);
    expect(d.config.groupSize).toBe(3);
    expect(d.config.lr).toBe(LIMITS.lr.max);
    expect(d.config.evalSize).toBe(LIMITS.evalSize.min);
    expect(d.config.replay).toBe(LIMITS.replay.max);
    expect(d.notices.join('\n')).toMatch(/seed: .*above the maximum; using 2147483647/);
    expect(d.notices.join('\n')).toMatch(/group_size: "2.6" is not a whole number; rounded to 3/);
    expect(d.notices).toHaveLength(6);
  });

  it('holds keep_failed below the group size, after the group size is decoded', () => {
    const d = decodeUrl('?keep_failed=9&group_size=4');
    expect(d.config.keepFailed).toBe(3);
    expect(d.notices).toEqual(['keep_failed: 9 must be below the group size 4; using 3']);
    expect(decodeUrl('?keep_failed=2&group_size=4').config.keepFailed).toBe(2);
    expect(decodeUrl('?keep_failed=99').notices[0]).toMatch(/above the maximum; using 31/);
    expect(v.safeParse(ExperimentSchema, { ...d.config, keepFailed: 4 }).success).toBe(false);
  });

  it('runs a method that teaches with working only on a task that writes working', () => {
    const d = decodeUrl('?task=arithmetic&methods=random-step,teacher-cd');
    expect(d.config.methods).toEqual(['mentor', 'mentor']);
    expect(d.notices).toEqual([
      'methods: random-step, teacher-cd teach with working, which arithmetic does not write; using mentor',
    ]);
    const worked = decodeUrl('?task=worked&methods=random-step,teacher-cd');
    expect(worked.config.methods).toEqual(['random-step', 'teacher-cd']);
    expect(worked.notices).toEqual([]);
  });

  it('rejects NaN and text in numbers, keeping the preset value', () => {
    const d = decodeUrl('?seed=NaN&prompts=abc&lr=');
    const base = presetConfig('collapse');
    expect(d.config.seed).toBe(base.seed);
    expect(d.config.prompts).toBe(base.prompts);
    expect(d.config.lr).toBe(base.lr);
    expect(d.notices).toHaveLength(3);
    expect(d.notices[0]).toMatch(/not a number/);
  });

  it('rejects unknown methods, tasks, presets, speeds and backends', () => {
    const d = decodeUrl(
      '?methods=evil,mentor&task=chess&preset=nope&speed=ludicrous&backend=tpu&model=huge',
    );
    expect(d.config.methods).toEqual(['none', 'mentor']);
    expect(d.config.task).toBe('arithmetic');
    expect(d.config.preset).toBe('collapse');
    expect(d.config.speed).toBe('live');
    expect(d.config.backend).toBe('auto');
    expect(d.config.model).toBe('tiny');
    expect(d.notices).toHaveLength(6);
  });

  it('never repeats hostile text in its notices', () => {
    const evil = '<script>alert(1)</script>';
    const img = '<img src=x onerror=alert(1)>';
    const q = `?task=${encodeURIComponent(evil)}&methods=${encodeURIComponent(img)},mentor&${encodeURIComponent(img)}=1&seed=${encodeURIComponent(evil)}&hide=${encodeURIComponent(evil)}`;
    const d = decodeUrl(q);
    const text = d.notices.join('\n');
    expect(text).not.toMatch(/[<>]/);
    expect(text).not.toContain('alert');
    expect(d.notices.length).toBeGreaterThanOrEqual(5);
    expect(v.safeParse(ExperimentSchema, d.config).success).toBe(true);
  });

  it('ignores very long values and very long queries', () => {
    const long = 'x'.repeat(5000);
    const d = decodeUrl(`?seed=${long}`);
    expect(d.notices[0]).toMatch(/all were ignored/);
    expect(d.config).toEqual(presetConfig('collapse'));
    expect(MAX_QUERY_LENGTH).toBeLessThan(5000);
    const d2 = decodeUrl(`?schedule=${'0:3,'.repeat(70)}`);
    expect(d2.notices.join()).toMatch(/schedule/);
    expect(d2.config.schedule).toEqual(presetConfig('collapse').schedule);
  });

  it('uses the first of repeated parameters and lists unknown ones', () => {
    const d = decodeUrl('?seed=4&seed=5&foo=1&bar=2');
    expect(d.config.seed).toBe(4);
    expect(d.notices.join('\n')).toMatch(/seed: given 2 times/);
    expect(d.notices.join('\n')).toMatch(/unknown parameters "foo", "bar"/);
  });

  it('decodes hide flags, dropping unknown names', () => {
    const d = decodeUrl('?hide=method,task,bogus,method');
    expect(d.config.hide).toEqual(['method', 'task']);
    expect(d.notices).toHaveLength(1);
    expect(HIDEABLE).toContain('diagnostics');
  });

  it('hides the reading guide with hide=help, and writes it back', () => {
    const d = decodeUrl('?preset=quick&hide=help,log');
    expect(d.config.hide).toEqual(['help', 'log']);
    expect(d.notices).toEqual([]);
    expect(encodeUrl(d.config)).toContain('hide=help,log');
  });

  it('always produces a config its schema accepts (fuzz)', () => {
    const pieces = [
      'preset',
      'task',
      'methods',
      'seed',
      'schedule',
      'prompts',
      'group',
      'group_size',
      'lr',
      'keep_failed',
      'hide',
      'speed',
      'x',
    ];
    const values = [
      '',
      '1e308',
      '-1',
      'NaN',
      'Infinity',
      '0:99',
      'mentor,none,static',
      '%00',
      '3:3,1:1',
      '<b>',
      'arithmetic',
      '0.5',
      '1'.repeat(40),
    ];
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 300; i++) {
      const q = Array.from(
        { length: 1 + rnd(5) },
        () => `${pieces[rnd(pieces.length)]}=${encodeURIComponent(values[rnd(values.length)])}`,
      ).join('&');
      const d = decodeUrl(`?${q}`);
      expect(v.safeParse(ExperimentSchema, d.config).success).toBe(true);
      expect(decodeUrl(encodeUrl(d.config)).notices).toEqual([]);
    }
  });
});

describe('schedule', () => {
  it('sorts, clamps levels into the task range and adds the start level', () => {
    const { max } = getFamily('arithmetic').levels;
    const d = decodeUrl('?schedule=50:99,20:4');
    expect(d.config.schedule).toEqual([
      { step: 0, level: 3 },
      { step: 20, level: 4 },
      { step: 50, level: max },
    ]);
    expect(d.notices).toHaveLength(2);
  });

  it('drops entries that are not step:level and merges repeats of a level', () => {
    const d = decodeUrl('?schedule=0:3,x,10:3,20:4,abc:1');
    expect(d.config.schedule).toEqual([
      { step: 0, level: 3 },
      { step: 20, level: 4 },
    ]);
    expect(d.notices[0]).toMatch(/ignored 2 entries/);
  });
});

describe('sameExperiment', () => {
  it('ignores view settings but not training ones', () => {
    const a = presetConfig('collapse');
    expect(sameExperiment(a, { ...a, speed: 'turbo', hide: ['task'] })).toBe(true);
    expect(sameExperiment(a, { ...a, seed: 2 })).toBe(false);
  });

  it('ignores distillation settings that do nothing in the run, and only those', () => {
    const l = presetConfig('listlang');
    expect(l.distill * l.distillPrompts).toBeGreaterThan(0);
    const off = { ...l, distill: 0, distillPrompts: 0 };
    expect(sameExperiment(off, { ...off, distillPrompts: 32 })).toBe(true);
    const noReplay = { ...l, replay: 0 };
    expect(sameExperiment(noReplay, { ...noReplay, distill: 0.5, distillPrompts: 8 })).toBe(true);
    expect(sameExperiment(l, { ...l, distillPrompts: 8 })).toBe(false);
    expect(sameExperiment(l, { ...l, distill: 0.5 })).toBe(false);
  });
});

describe('quote', () => {
  it('shows short safe values only', () => {
    expect(quote('abc')).toBe('"abc"');
    expect(quote('<x>')).toBe('an invalid value');
    expect(quote('a'.repeat(30))).toBe('a long value');
  });
});
