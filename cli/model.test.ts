import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../src/engine/cpu/cpu-backend.ts';
import { saveCheckpoint } from '../src/model/checkpoint.ts';
import { presetConfig } from '../src/model/config.ts';
import { Transformer } from '../src/model/transformer.ts';
import { VOCAB_SIZE } from '../src/tasks/tokenizer.ts';

const dir = mkdtempSync(join(tmpdir(), 'model-cli-'));
const good = join(dir, 'tiny.safetensors');
const truncated = join(dir, 'truncated.safetensors');

beforeAll(async () => {
  const bytes = await saveCheckpoint(
    Transformer.create(new CpuBackend(), presetConfig('tiny', VOCAB_SIZE), 5),
  );
  writeFileSync(good, bytes);
  writeFileSync(truncated, bytes.subarray(0, bytes.length - 4));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm run model -- …` without npm: the same loader flags scripts/cli.ts passes. */
function model(...args: string[]) {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--import', './cli/register.mjs', 'cli/model.ts', ...args],
    { encoding: 'utf8' },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
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

  it('a bad command line or text: a message, exit code 2', () => {
    expect(model('forward', '--checkpoint', good, '--txet', '12')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/Unknown option '--txet'/),
    });
    expect(model('forward', '--checkpoint', good, '--text', 'ABC')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/cannot encode "A"/),
    });
  });
});
