import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { comparableRun, tableLessTiming } from '../testing/comparable-run.ts';
import { runTool } from '../testing/run-tool.ts';

const dir = mkdtempSync(join(tmpdir(), 'table-print-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const table = (outDir: string, ...more: string[]) =>
  runTool(
    'table',
    ...['--task', 'arithmetic', '--methods', 'none,mentor', '--seeds', '1', '--steps', '6'],
    ...['--schedule', '0:3,3:4', '--extra=--prompts 4 --eval-every 3 --eval-size 8'],
    ...['--out-dir', outDir, ...more],
  );

describe('npm run table --print-commands and --collect', () => {
  it('give the runs the local pool gives, and the table from them, running nothing', () => {
    const local = join(dir, 'local');
    const ran = table(local);
    expect(ran.code, ran.stderr).toBe(0);

    const printed = join(dir, 'printed');
    const commands = table(printed, '--print-commands');
    expect(commands.code, commands.stderr).toBe(0);
    expect(commands.stdout.trim().split('\n')).toHaveLength(2);
    const shell = spawnSync('sh', ['-e'], { input: commands.stdout, encoding: 'utf8' });
    expect(shell.status, shell.stderr).toBe(0);
    for (const run of ['none-seed1.jsonl', 'mentor-seed1.jsonl'])
      expect(comparableRun(readFileSync(join(printed, run), 'utf8'))).toEqual(
        comparableRun(readFileSync(join(local, run), 'utf8')),
      );

    const collected = table(printed, '--collect');
    expect(collected.code, collected.stderr).toBe(0);
    expect(collected.stdout).toMatch(/all read back from/);
    expect(tableLessTiming(readFileSync(join(printed, 'table.md'), 'utf8'))).toBe(
      tableLessTiming(readFileSync(join(local, 'table.md'), 'utf8')),
    );
    // What is not there is listed with the command that runs it; nothing runs.
    const holes = table(printed, '--collect', '--seeds', '1,2');
    expect(holes.code).toBe(1);
    expect(holes.stderr).toMatch(/2 of 4 runs finished .* 2 missing/);
    expect(holes.stderr).toMatch(
      /missing +\S+none-seed2\.jsonl\n +node --experimental-wasm-relaxed-simd .* --seed 2 /,
    );
    // A run with other flags is refused as --reuse refuses it.
    const other = table(printed, '--collect', '--steps', '7');
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/--collect: \S+none-seed1\.jsonl was run with other flags/);
  }, 120_000);
});
