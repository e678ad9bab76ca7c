import { describe, expect, it } from 'vitest';
import { presetConfig } from '../presets.ts';
import { laneConfig } from './lane-config.ts';

describe('laneConfig', () => {
  const base = new Uint8Array([1, 2, 3]);

  it('carries the starting policy to the worker where the task distills to it', () => {
    const c = presetConfig('listlang');
    expect(c.distill).toBeGreaterThan(0);
    const lane = laneConfig(c, 1, base);
    expect(lane.spec.settings.distillCoef).toBe(c.distill);
    expect(c.distillPrompts).toBeGreaterThan(0);
    expect(lane.spec.settings.distillPrompts).toBe(c.distillPrompts);
    expect(lane.base).toBe(base);
    expect(lane.spec.method).toBe(c.methods[1]);
  });

  it('sends no base where distillation is off or has no replay to learn on, and needs one else', () => {
    const arithmetic = presetConfig('collapse');
    expect(arithmetic.distill).toBe(0);
    expect(laneConfig(arithmetic, 0, base)).toMatchObject({
      spec: { settings: { distillCoef: 0 } },
      base: null,
    });
    // Extra easy prompts are learned by distillation alone: none where it is off.
    const noReplay = { ...presetConfig('listlang'), replay: 0 };
    expect(laneConfig(noReplay, 0, base)).toMatchObject({
      spec: { settings: { distillCoef: 0, distillPrompts: 0 } },
      base: null,
    });
    const noDistill = { ...presetConfig('listlang'), distill: 0 };
    expect(laneConfig(noDistill, 0, base)).toMatchObject({
      spec: { settings: { distillPrompts: 0 } },
      base: null,
    });
    expect(() => laneConfig(presetConfig('listlang'), 0, null)).toThrow(
      /distillation needs the policy the run started from/,
    );
  });
});
