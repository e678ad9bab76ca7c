import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun } from '../../src/research/results.ts';
import { runTool } from '../testing/run-tool.ts';
import { isFinished } from '../table/reuse.ts';
import { loadTaskModule } from './load-task.ts';

// A task module through the tools a person runs: a base warmed up for it, a run from that base,
// and a table that reuses the run only while the task's file is the one it ran.
describe('a task module on the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'task-runs-'));
  const task = join(dir, 'copy.mjs');
  const code = `export default { id: 'copy', label: 'Copy a word', levels: { min: 1, max: 3 },
  sample: (n, rng) => { const w = Array.from({ length: n }, () => rng.pick([...'abc'])).join(''); return { text: w, answer: w }; } };`;
  writeFileSync(task, code);

  it('warms a base up, runs from it, and is told apart from an edited task', async () => {
    const base = join(dir, 'copy.safetensors');
    const pretrain = runTool(
      'pretrain',
      ...['--task', task, '--steps', '20', '--out', base, '--report-size', '4'],
    );
    expect(pretrain.code, pretrain.stderr).toBe(0);
    expect(pretrain.stdout).toMatch(/^\| level \| none \| length:1 \|/m);
    expect(pretrain.stdout).toMatch(/^level 2: unhinted chance of the reference answer/m);
    // And what the gate says of the jump, as the page says it.
    expect(pretrain.stdout).toMatch(/^greedy \d+% at level 2; unhelped (about|never)/m);
    const out = join(dir, 'run.jsonl');
    const args = [
      ...['--task', task, '--init', base, '--method', 'mentor', '--seed', '1', '--steps', '3'],
      ...['--schedule', '0:1,1:2', '--prompts', '2', '--group-size', '2', '--eval-every', '3'],
      ...['--eval-size', '4', '--out', out],
    ];
    const run = runTool('experiment', ...args);
    expect(run.code, run.stderr).toBe(0);
    const record = parseRun(readFileSync(out, 'utf8'));
    expect(record.taskSha256).toMatch(/^[0-9a-f]{64}$/);
    // As the table's process has it: the task loaded by its --task flag.
    await loadTaskModule(task, 128);
    const planned = { method: 'mentor', seed: 1, args, out };
    expect(isFinished(planned, '--reuse')).toBe(true);
    writeFileSync(task, code.replace("'abc'", "'abd'"));
    expect(() => isFinished(planned, '--reuse')).toThrow(
      `--reuse: ${out} ran another task (${task} has changed since); move it away or pick another --out-dir`,
    );
  }, 180_000);
});
