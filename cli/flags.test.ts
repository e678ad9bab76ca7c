import { describe, expect, it } from 'vitest';
import { UsageError, parseFlags, usage, type Flag } from './flags.ts';

const FLAGS: Flag[] = [
  { name: 'steps', kind: 'int', default: 400, min: 1, help: 'GRPO steps' },
  { name: 'lr', kind: 'number', help: 'learning rate' },
  { name: 'quick', kind: 'bool', default: false, help: 'fewer steps' },
  {
    name: 'mentor-channel',
    kind: 'choice',
    choices: ['scaffold', 'demonstrate'],
    help: "the mentor's channel",
  },
];

describe('command-line flags', () => {
  it('parses values, inline values and booleans over the defaults', () => {
    expect(parseFlags(['--steps', '7', '--lr=3e-4', '--quick'], FLAGS)).toEqual({
      steps: 7,
      lr: 3e-4,
      quick: true,
      'mentor-channel': undefined,
    });
    expect(parseFlags([], FLAGS)).toEqual({ steps: 400, quick: false });
  });

  it('rejects unknown flags, missing and bad values with a UsageError naming the flag', () => {
    const bad: [string[], RegExp][] = [
      [['--stepz', '3'], /unknown flag --stepz/],
      [['--steps'], /--steps needs a value/],
      [['--steps', '--quick'], /--steps needs a value/],
      [['--steps', '2.5'], /--steps must be an integer/],
      [['--steps', '0'], /--steps must be in \[1, ∞\]/],
      [['--lr', 'fast'], /--lr must be a number/],
      [['--mentor-channel', 'shout'], /must be one of scaffold, demonstrate/],
      [['--quick=maybe'], /--quick takes no value/],
      [['stray'], /unexpected argument "stray"/],
    ];
    for (const [argv, message] of bad) {
      expect(() => parseFlags(argv, FLAGS)).toThrow(UsageError);
      expect(() => parseFlags(argv, FLAGS)).toThrow(message);
    }
  });

  it('lines the help up in one column, with room after the longest flag', () => {
    const lines = usage('tool', 'Does things.', FLAGS).split('\n').slice(5);
    const column = lines.map((l) => l.indexOf(l.trim().split(/\s{2,}/)[1]));
    expect(new Set(column).size).toBe(1);
    expect(lines[3]).toMatch(/--mentor-channel <scaffold\|demonstrate> {2}the mentor's channel$/);
    expect(lines[0]).toMatch(/--steps <int> +GRPO steps \(default: 400\)$/);
  });
});
