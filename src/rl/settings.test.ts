import { describe, expect, it } from 'vitest';
import { familyEntry } from '../tasks/index.ts';
import { DEFAULT_GRPO } from './config.ts';
import {
  CLI_SETTINGS,
  PAGE_SETTINGS,
  pageField,
  TRAINER_SETTINGS,
  type PageSettings,
  plainDefault,
  resolveSettings,
  settingsOfPage,
  withNames,
} from './settings.ts';

/** Expects no name twice in `xs`. */
const unique = (xs: readonly string[]) => expect(new Set(xs).size).toBe(xs.length);

describe('the trainer settings table', () => {
  it('sets each GrpoConfig field once, under names no other setting has', () => {
    unique(TRAINER_SETTINGS.map((s) => s.key));
    unique(PAGE_SETTINGS.flatMap((s) => [s.url.name, ...(s.url.aliases ?? [])]));
    unique(CLI_SETTINGS.map((s) => s.cli.flag));
    for (const s of TRAINER_SETTINGS) expect(s.key in DEFAULT_GRPO, s.key).toBe(true);
  });

  it('spells each setting from its one name: snake_case in the URL, kebab-case as a flag', () => {
    const by = (key: string) => TRAINER_SETTINGS.find((s) => s.key === key);
    expect(by('groupSize')).toMatchObject({
      url: { name: 'group_size' },
      cli: { flag: 'group-size' },
    });
    // Named apart from their GrpoConfig field, which every saved run's config keeps.
    expect(by('distillCoef')).toMatchObject({
      url: { name: 'distill', field: 'distill' },
      cli: { flag: 'distill' },
    });
    expect(by('offPolicyGamma')?.cli?.flag).toBe('shaping-gamma');
    expect(by('klCoef')?.cli?.flag).toBe('kl');
  });

  it('has defaults within its bounds, on both surfaces', () => {
    for (const s of TRAINER_SETTINGS) {
      const d = plainDefault(s);
      expect(d, s.key).toBeGreaterThanOrEqual(s.min);
      expect(d, s.key).toBeLessThanOrEqual(s.max);
      if (s.url) expect(s.url.default ?? d, s.key).toBeLessThanOrEqual(s.url.max ?? s.max);
    }
  });

  it('writes the names of other settings as a surface names them, and knows them all', () => {
    const flag = (text: string) => withNames(text, (s) => `--${s.cli?.flag}`);
    expect(flag('below {groupSize}')).toBe('below --group-size');
    expect(() => flag('{nothing}')).toThrow(/names no setting/);
  });
});

describe('resolveSettings', () => {
  const listlang = familyEntry('listlang').collapse;

  it("takes the task's collapse scenario where a setting is not given", () => {
    const s = resolveSettings({}, listlang);
    expect(s).toMatchObject({
      keepFailed: listlang.keepFailed,
      distillCoef: listlang.distill,
      distillPrompts: listlang.distillPrompts,
      lrDecay: listlang.lrDecay,
      replay: DEFAULT_GRPO.replay,
    });
  });

  it('lets the scenario defaults give way to the settings they depend on, not given values', () => {
    expect(resolveSettings({ replay: 0 }, listlang)).toMatchObject({
      distillCoef: 0,
      distillPrompts: 0,
    });
    expect(resolveSettings({ groupSize: 3 }, listlang).keepFailed).toBe(2);
    expect(resolveSettings({ groupSize: 3, keepFailed: 5 }, listlang).keepFailed).toBe(5);
    expect(resolveSettings({ distillCoef: 0 }, listlang).distillPrompts).toBe(0);
  });
});

describe("the page's settings", () => {
  it('reach the trainer under its keys (the page writes distillCoef as distill)', () => {
    const page = { ...fromTable(), distill: 0.5, replay: 0.25 };
    expect(settingsOfPage(page)).toMatchObject({ distillCoef: 0.5, replay: 0.25 });
    expect(settingsOfPage(page)).not.toHaveProperty('lrDecay');
  });
});

/** The page's settings at their plain defaults. */
function fromTable(): PageSettings {
  return Object.fromEntries(
    PAGE_SETTINGS.map((s) => [pageField(s), plainDefault(s)]),
  ) as PageSettings;
}
