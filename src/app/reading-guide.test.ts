import { describe, expect, it } from 'vitest';
import { CUSTOM_TASK } from './experiment-config.ts';
import { presetConfig } from './presets.ts';
import { readingGuide } from './reading-guide.ts';

const gate = { level: 4, problems: 5000, chance: 3.45e-4 };

/** The guide to the collapse preset from the shipped base, but for what `patch` changes. */
const guide = (patch: Partial<Parameters<typeof readingGuide>[0]>) =>
  readingGuide({
    config: presetConfig('collapse'),
    names: ['A', 'B'],
    gate,
    imported: false,
    ...patch,
  });

describe('how to read this page', () => {
  it('says arithmetic is written units first, what the lines are, why zero-std is high before the jump, and how likely an escape is', () => {
    const items = guide({ names: ['GRPO', 'GRPO + MENTOR'] });
    expect(items.map((i) => i.title)).toEqual([
      'Numbers',
      'Lines',
      'No learning signal',
      'Can plain GRPO escape by itself?',
    ]);
    expect(items[0].text).toMatch(/units digit first/);
    expect(items[1].text).toMatch(/^Colour is the lane: orange is GRPO, blue is GRPO \+ MENTOR\./);
    expect(items[2].text).toMatch(/near 1 because nearly every answer is right/);
    expect(items[3].text).toMatch(/^At level 4 \(4-digit addition\)/);
  });

  it('says whose reading it is when the lanes start from an imported base', () => {
    const items = guide({ imported: true });
    expect(items.at(-1)?.text).toMatch(
      /^For the shipped base \(the lanes start from an imported one\): At level 4/,
    );
  });

  it('leaves out what does not apply, and sends a custom task to its panel', () => {
    const listlang = guide({ config: presetConfig('listlang'), gate: null });
    expect(listlang.map((i) => i.title)).toEqual(['Lines', 'No learning signal']);
    const custom = guide({ config: { ...presetConfig('quick'), task: CUSTOM_TASK }, gate: null });
    expect(custom.map((i) => i.title)).toEqual([
      'Lines',
      'No learning signal',
      'Can plain GRPO escape by itself?',
    ]);
    expect(custom.at(-1)?.text).toMatch(/Custom task panel/);
  });
});
