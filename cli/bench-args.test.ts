import { describe, expect, it } from 'vitest';
import { DEFAULT_BENCH, QUICK_BENCH } from '../src/model/benchmark.ts';
import { BENCH_USAGE, parseBenchArgs } from './bench-args.ts';

describe('bench command line', () => {
  it('defaults to both backends, the tiny preset, the default options and a table', () => {
    expect(parseBenchArgs([])).toEqual({
      kind: 'run',
      args: { backends: ['cpu', 'webgpu'], preset: 'tiny', options: DEFAULT_BENCH, json: false },
    });
  });

  it('reads every flag', () => {
    const cmd = parseBenchArgs([
      '--backend',
      'webgpu',
      '--preset=small',
      '--quick',
      '--batch',
      '3',
      '--json',
    ]);
    expect(cmd).toEqual({
      kind: 'run',
      args: {
        backends: ['webgpu'],
        preset: 'small',
        options: { ...QUICK_BENCH, batch: 3 },
        json: true,
      },
    });
  });

  it('--help lists every flag', () => {
    expect(parseBenchArgs(['--json', '--help'])).toEqual({ kind: 'help' });
    for (const flag of ['--backend', '--preset', '--batch', '--quick', '--json', '--help'])
      expect(BENCH_USAGE).toContain(flag);
  });

  it.each([
    [['--fast'], /Unknown option '--fast'/],
    [['--backend', 'tpu'], /--backend must be cpu, webgpu or both, got "tpu"/],
    [['--backend'], /--backend <value>' argument missing/],
    [['--preset', 'huge'], /--preset must be tiny or small, got "huge"/],
    [['--batch', '0'], /--batch must be an integer in \[1, 4096\], got "0"/],
    [['--batch', '2.5'], /--batch must be an integer/],
    [['--batch', '1e3'], /--batch must be an integer/],
    [['--json=yes'], /'--json' does not take an argument/],
    [['cpu'], /Unexpected argument 'cpu'/],
  ])('rejects %j', (argv, message) => {
    const cmd = parseBenchArgs(argv);
    expect(cmd.kind).toBe('error');
    expect(cmd.kind === 'error' && cmd.message).toMatch(message);
  });
});
