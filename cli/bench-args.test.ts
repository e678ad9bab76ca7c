import { describe, expect, it } from 'vitest';
import { DEFAULT_BENCH, QUICK_BENCH } from '../src/model/benchmark.ts';
import { BENCH_FLAGS, BENCH_SUMMARY, parseBenchArgs } from './bench-args.ts';
import { UsageError, usage } from './flags.ts';

describe('bench command line', () => {
  it('defaults to both backends, the tiny model, the default options and a table', () => {
    expect(parseBenchArgs([])).toEqual({
      backends: ['cpu', 'webgpu'],
      model: 'tiny',
      options: DEFAULT_BENCH,
      json: false,
      peers: false,
      profile: false,
      threads: 2,
    });
  });

  it('reads every flag', () => {
    const args = parseBenchArgs([
      '--backend',
      'webgpu',
      '--model=small',
      '--quick',
      '--batch',
      '3',
      '--json',
      '--peers',
      '--profile',
      '--threads',
      '4',
    ]);
    expect(args).toEqual({
      backends: ['webgpu'],
      model: 'small',
      options: { ...QUICK_BENCH, batch: 3 },
      json: true,
      peers: true,
      profile: true,
      threads: 4,
    });
    expect(parseBenchArgs(['--backend', 'cpu']).backends).toEqual(['cpu']);
    expect(parseBenchArgs(['--batch', '4096']).options).toEqual({ ...DEFAULT_BENCH, batch: 4096 });
    expect(parseBenchArgs(['--quick']).options).toEqual(QUICK_BENCH);
    expect(parseBenchArgs(['--peers', '--backend', 'cpu'])).toMatchObject({
      peers: true,
      backends: ['cpu'],
    });
    expect(parseBenchArgs(['--peers=false']).peers).toBe(false);
  });

  it('--help lists every flag and what the bench measures', () => {
    const help = usage('npm run bench --', BENCH_SUMMARY, BENCH_FLAGS);
    for (const flag of ['--backend <cpu|webgpu|both>', '--model <tiny|small>', '--batch <int>'])
      expect(help).toContain(flag);
    expect(help).toMatch(/--quick +a seconds-long run: batch 8, prompts of 8 and 48 tokens/);
    expect(help).toMatch(/--json +print only the JSON line/);
    expect(help).toMatch(
      /--peers +time the training step in PyTorch .* and TF\.js.*\(default: false\)/,
    );
    expect(help).toMatch(/which backends to run .*\(default: both\)/);
    expect(help).toContain('128 is a full GRPO batch');
    expect(help).toContain('Times one training step');
    expect(help).toContain('then one line of JSON');
  });

  it.each([
    [['--fast'], /unknown flag --fast/],
    [['--backend', 'tpu'], /--backend must be one of cpu, webgpu, both; got "tpu"/],
    [['--backend'], /--backend needs a value/],
    [['--model', 'huge'], /--model must be one of tiny, small; got "huge"/],
    [['--batch', '0'], /--batch must be in \[1, 4096\]; got 0/],
    [['--batch', '4097'], /--batch must be in \[1, 4096\]; got 4097/],
    [['--batch', '2.5'], /--batch must be an integer/],
    [['--batch', 'many'], /--batch must be an integer/],
    [['--json=yes'], /--json takes no value/],
    [['--peers', 'torch'], /unexpected argument "torch"/],
    [['--peers=all'], /--peers takes no value/],
    [['cpu'], /unexpected argument "cpu"/],
  ])('rejects %j with a UsageError', (argv, message) => {
    expect(() => parseBenchArgs(argv)).toThrow(UsageError);
    expect(() => parseBenchArgs(argv)).toThrow(message);
  });
});
