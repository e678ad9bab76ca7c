import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TOOL_NODE_ARGS } from '../scripts/tool-args.ts';
import { partialPath } from './out-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'out-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run experiment --out', () => {
  it('leaves nothing at --out that reads as finished when killed mid-way', async () => {
    const out = join(dir, 'killed.jsonl');
    writeFileSync(out, '{"summary":{"from":"an older run"}}\n');
    const child = spawn(
      process.execPath,
      [
        ...TOOL_NODE_ARGS,
        'cli/experiment.ts',
        '--task',
        'arithmetic',
        '--steps',
        '1000',
        '--out',
        out,
      ],
      { stdio: 'ignore' },
    );
    // Killed once its first step is written.
    while (!(existsSync(partialPath(out)) && readFileSync(partialPath(out), 'utf8').includes('\n')))
      await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    expect(existsSync(out)).toBe(false);
    expect(readFileSync(partialPath(out), 'utf8')).toMatch(/^\{"step":0,/);
  }, 60_000);
});
