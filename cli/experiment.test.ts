import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../src/engine/cpu/cpu-backend.ts';
import { loadCheckpoint } from '../src/model/checkpoint.ts';
import { runTool, stepLines } from './testing/run-tool.ts';

const dir = mkdtempSync(join(tmpdir(), 'experiment-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BASE = 'public/checkpoints/arithmetic-tiny.safetensors';

function experiment(...args: string[]) {
  return runTool('experiment', ...args);
}

async function weights(path: string) {
  const { model, metadata } = loadCheckpoint(new CpuBackend(), readFileSync(path));
  const tensors = new Map((await model.params.toTensors()).map((t) => [t.name, t.data]));
  return { tensors, metadata };
}

describe('npm run experiment --save', () => {
  it('writes the policy the run ends with, with what made it, and --init starts from it', async () => {
    const quiet = ['--task', 'arithmetic', '--eval-every', '100', '--prompts', '2', '--seed', '3'];
    // At 4 digits every unhelped group fails; the mentor's rescues give the steps a gradient.
    const trained = join(dir, 'trained.safetensors');
    const r = experiment(...quiet, '--schedule', '0:4', '--method', 'mentor', '--steps', '3');
    expect(r.code, r.stderr).toBe(0);
    const withSave = experiment(
      ...quiet,
      '--schedule',
      '0:4',
      '--method',
      'mentor',
      '--steps',
      '3',
      '--save',
      trained,
    );
    expect(withSave.code, withSave.stderr).toBe(0);
    // Saving changes nothing of the run itself.
    expect(stepLines(withSave.stdout)).toEqual(stepLines(r.stdout));

    const base = await weights(BASE);
    const saved = await weights(trained);
    expect(saved.metadata).toMatchObject({
      task: 'arithmetic',
      model: 'tiny',
      method: 'mentor',
      seed: '3',
      step: '3',
      schedule: '0:4',
      base_sha256: createHash('sha256').update(readFileSync(BASE)).digest('hex'),
    });
    expect([...saved.tensors.keys()]).toEqual([...base.tensors.keys()]);
    const moved = [...saved.tensors].filter(
      ([name, data]) => !data.every((v, i) => v === base.tensors.get(name)![i]),
    );
    expect(moved.length).toBeGreaterThan(0);

    // A run from the saved policy at 1 digit, where nothing fails, saves it back unchanged.
    const again = join(dir, 'again.safetensors');
    const resumed = experiment(
      ...quiet,
      '--init',
      trained,
      '--schedule',
      '0:1',
      '--steps',
      '1',
      '--save',
      again,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const back = await weights(again);
    expect(back.metadata.base_sha256).toBe(
      createHash('sha256').update(readFileSync(trained)).digest('hex'),
    );
    for (const [name, data] of saved.tensors) expect(back.tensors.get(name)).toEqual(data);
  }, 120_000);

  it('refuses to overwrite the checkpoint the run starts from, before running', () => {
    const before = readFileSync(BASE);
    const r = experiment('--task', 'arithmetic', '--steps', '1', '--save', BASE);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/would overwrite the checkpoint the run starts from/);
    expect(r.stdout).toBe('');
    expect(readFileSync(BASE).equals(before)).toBe(true);
  });
});
