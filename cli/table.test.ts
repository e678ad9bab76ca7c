import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'table-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A CLI tool launched as scripts/cli.ts launches it (relaxed SIMD on where the runtime has it). */
function tool(name: string, ...args: string[]) {
  const r = spawnSync(
    process.execPath,
    [
      '--experimental-wasm-relaxed-simd',
      '--import',
      'tsx',
      '--import',
      './cli/register.mjs',
      `cli/${name}.ts`,
      ...args,
    ],
    { encoding: 'utf8' },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The step lines of a run, without their timing. */
function steps(jsonl: string) {
  return jsonl
    .split('\n')
    .filter((l) => l.startsWith('{"step"'))
    .map((l) => {
      const { tokens_per_s: _t, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return rest;
    });
}

describe('npm run table', () => {
  it('runs each method exactly as npm run experiment does, to the last bit', () => {
    // At 4 digits every group fails and the mentor's rescues give each step a gradient, so a
    // difference in any float (the fused multiply-add of relaxed SIMD or not) shows.
    const extra = ['--schedule', '0:4', '--prompts', '4', '--eval-every', '1'];
    const alone = tool(
      'experiment',
      '--task',
      'arithmetic',
      '--steps',
      '2',
      ...extra,
      '--method',
      'mentor',
      '--seed',
      '2',
    );
    expect(alone.code, alone.stderr).toBe(0);
    const table = tool(
      'table',
      '--task',
      'arithmetic',
      '--steps',
      '2',
      '--methods',
      'mentor',
      '--seeds',
      '2',
      '--out-dir',
      dir,
      `--extra=${extra.join(' ')}`,
    );
    expect(table.code, table.stderr).toBe(0);
    const inTable = steps(readFileSync(join(dir, 'mentor-seed2.jsonl'), 'utf8'));
    expect(inTable).toHaveLength(2);
    expect(inTable).toEqual(steps(alone.stdout));
  }, 120_000);
});
