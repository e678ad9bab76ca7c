import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../src/engine/cpu/cpu-backend.ts';
import { saveCheckpoint } from '../src/model/checkpoint.ts';
import { modelConfig } from '../src/model/config.ts';
import { Transformer } from '../src/model/transformer.ts';
import { VOCAB_SIZE } from '../src/tasks/tokenizer.ts';
import { UsageError } from './flags.ts';
import { parseModelArgs } from './model-args.ts';
import { runTool } from './testing/run-tool.ts';

const dir = mkdtempSync(join(tmpdir(), 'model-cli-'));
const good = join(dir, 'tiny.safetensors');
const truncated = join(dir, 'truncated.safetensors');

beforeAll(async () => {
  const bytes = await saveCheckpoint(
    Transformer.create(new CpuBackend(), modelConfig('tiny', VOCAB_SIZE), 5),
  );
  writeFileSync(good, bytes);
  writeFileSync(truncated, bytes.subarray(0, bytes.length - 4));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function model(...args: string[]) {
  return runTool('model', ...args);
}

describe('npm run model', () => {
  it('forward --json prints one JSON object with loss, logits and gradient norms', () => {
    const r = model('forward', '--checkpoint', good, '--text', '12+34|=64.', '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.text).toBe('^12+34|=64.');
    expect(out.logits).toHaveLength(VOCAB_SIZE);
    expect(out.loss).toBeGreaterThan(0);
    expect(Object.keys(out.gradNorms)).toContain('blocks.1.attn.qkv.weight');
  });

  it('a damaged checkpoint: the CheckpointError message, exit code 1', () => {
    const r = model('forward', '--checkpoint', truncated, '--text', '12');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/truncated\.safetensors: .*past the file's .* data bytes/);
  });

  it('--help: the usage with the subcommand and every flag, exit code 0', () => {
    const r = model('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: npm run model -- forward \[flags\]/);
    expect(r.stdout).toMatch(/forward +Runs a safetensors checkpoint on one text/);
    for (const flag of ['--checkpoint <string>', '--text <string>', '--backend <cpu|webgpu>'])
      expect(r.stdout).toContain(flag);
    expect(r.stdout).toMatch(/--json +one JSON object/);
  });

  it('a bad command line or text: a message, exit code 2', () => {
    expect(model('forward', '--checkpoint', good, '--txet', '12')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/unknown flag --txet/),
    });
    expect(model('forward', '--checkpoint', good, '--text', 'ABC')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/cannot encode "A"/),
    });
  });
});

describe('npm run model command line', () => {
  it('reads the subcommand, then the flags over their defaults', () => {
    expect(parseModelArgs(['forward', '--checkpoint', 'a.safetensors', '--text', '12'])).toEqual({
      checkpoint: 'a.safetensors',
      text: '12',
      backend: 'cpu',
      json: false,
    });
    expect(
      parseModelArgs(['forward', '--text=-5', '--checkpoint=b', '--backend', 'webgpu', '--json']),
    ).toEqual({ checkpoint: 'b', text: '-5', backend: 'webgpu', json: true });
  });

  it.each([
    [[], /expected the command "forward" first, got none/],
    [
      ['backward', '--checkpoint', 'a', '--text', '1'],
      /expected the command "forward" first, got "backward"/,
    ],
    [
      ['--checkpoint', 'a', 'forward', '--text', '1'],
      /expected the command "forward" first, got "--checkpoint"/,
    ],
    [['forward', 'forward', '--checkpoint', 'a', '--text', '1'], /unexpected argument "forward"/],
    [['forward', '--text', '1'], /--checkpoint is required/],
    [['forward', '--checkpoint', 'a'], /--text is required/],
    [['forward', '--checkpoint', 'a', '--text'], /--text needs a value/],
    [
      ['forward', '--checkpoint', 'a', '--text', '1', '--backend', 'tpu'],
      /--backend must be one of cpu, webgpu; got "tpu"/,
    ],
    [['forward', '--checkpoint', 'a', '--text', '1', '--json=yes'], /--json takes no value/],
  ])('rejects %j with a UsageError', (argv, message) => {
    expect(() => parseModelArgs(argv)).toThrow(UsageError);
    expect(() => parseModelArgs(argv)).toThrow(message);
  });
});
