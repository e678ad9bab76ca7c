import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError, parseFlags, runCli, usage, type Flag } from './flags.ts';

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

describe('runCli', () => {
  const argv = process.argv;
  afterEach(() => {
    process.argv = argv;
    vi.restoreAllMocks();
  });

  /** process.exit, caught: it stops runCli as the real one would. */
  class Exit extends Error {
    constructor(readonly code: unknown) {
      super(`exit ${String(code)}`);
    }
  }

  /** Runs runCli on `args` with process.exit and the console caught; what it did. */
  async function run(
    args: string[],
    main: (v: unknown) => Promise<void>,
    ...parse: [] | [(argv: readonly string[]) => unknown]
  ) {
    process.argv = ['node', 'tool.ts', ...args];
    vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Exit(code);
    });
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const seen: unknown[] = [];
    let exit: unknown = null;
    try {
      await runCli(
        'tool',
        'Does things.',
        FLAGS,
        async (v) => {
          seen.push(v);
          await main(v);
        },
        ...parse,
      );
    } catch (e) {
      if (!(e instanceof Exit)) throw e;
      exit = e.code;
    }
    return {
      seen,
      exit,
      stdout: log.mock.calls.join('\n'),
      stderr: error.mock.calls.join('\n'),
    };
  }
  const ok = async () => {};

  it('hands main the parsed flags; --help prints the usage instead', async () => {
    expect(await run(['--steps', '3'], ok)).toMatchObject({
      seen: [{ steps: 3, quick: false }],
      exit: null,
    });
    const help = await run(['--steps', 'x', '--help'], ok);
    expect(help).toMatchObject({ seen: [], exit: null });
    expect(help.stdout).toMatch(/^usage: tool \[flags\]\n\nDoes things\./);
  });

  it('a custom parse: its result goes to main, its UsageError exits 2', async () => {
    const parse = (a: readonly string[]) => {
      if (a[0] !== 'go') throw new UsageError('expected "go"');
      return { command: a[0], flags: parseFlags(a.slice(1), FLAGS) };
    };
    expect(await run(['go', '--quick'], ok, parse)).toMatchObject({
      seen: [{ command: 'go', flags: { steps: 400, quick: true } }],
      exit: null,
    });
    expect(await run(['stop'], ok, parse)).toMatchObject({
      seen: [],
      exit: 2,
      stderr: expect.stringMatching(/^tool: expected "go"\nrun with --help/),
    });
    expect(await run(['go', '--steps', '0'], ok, parse)).toMatchObject({
      exit: 2,
      stderr: expect.stringMatching(/--steps must be in/),
    });
  });

  it('any other error from main exits 1 with its message', async () => {
    const r = await run([], async () => {
      throw new Error('disk full');
    });
    expect(r).toMatchObject({ exit: 1, stderr: 'tool: disk full' });
  });
});
