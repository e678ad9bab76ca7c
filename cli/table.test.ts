import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTool, stepLines } from './testing/run-tool.ts';

const dir = mkdtempSync(join(tmpdir(), 'table-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run table', () => {
  // Node 20 (this project's) has relaxed SIMD off unless asked for, which is what made a table's
  // runs differ from single runs; where a runtime has it on by default this holds either way.
  it('runs each method exactly as npm run experiment does, to the last bit', () => {
    // At 4 digits every group fails and the mentor's rescues give each step a gradient, so a
    // difference in any float (the fused multiply-add of relaxed SIMD or not) shows.
    const extra = ['--schedule', '0:4', '--prompts', '4', '--eval-every', '1'];
    const alone = runTool(
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
    const table = runTool(
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
    // The protocol's table (docs/protocol.md) leads table.md.
    expect(table.stdout).toMatch(/\| method \| seeds \| steps to 0\.5 \(median\) \|/);
    // It names the best rival only from all of the protocol's rivals: none ran here.
    expect(table.stdout).toContain(
      "The protocol's best rival is not named here: static, static-unhinted, prefix, offpolicy, offpolicy-full, offpolicy-plain, refine, refine-full did not run in this table",
    );
    // The reference ledger: its column, and a count on every step line.
    expect(table.stdout).toContain('| reference characters shown after the jump (median) |');
    const inTable = stepLines(readFileSync(join(dir, 'mentor-seed2.jsonl'), 'utf8'));
    expect(inTable).toHaveLength(2);
    for (const line of inTable) expect(Number.isInteger(line.reference_chars)).toBe(true);
    expect(inTable).toEqual(stepLines(alone.stdout));

    // --reuse takes the run back when the table would launch it alike, and refuses it otherwise.
    const again = (more: string[], outDir = dir) =>
      runTool(
        'table',
        ...['--task', 'arithmetic', '--steps', '2', '--methods', 'mentor', '--seeds', '2'],
        ...['--out-dir', outDir, '--reuse', `--extra=${[...extra, ...more].join(' ')}`],
      );
    const reused = again([]);
    expect(reused.code, reused.stderr).toBe(0);
    expect(reused.stdout).toMatch(/all read back from/);
    // A copy in another table's folder is the same run.
    const copies = join(dir, 'copies');
    mkdirSync(copies);
    copyFileSync(join(dir, 'mentor-seed2.jsonl'), join(copies, 'mentor-seed2.jsonl'));
    expect(again([], copies).stdout).toMatch(/all read back from/);
    const other = again(['--lr', '1e-3']);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/mentor-seed2\.jsonl was run with other flags/);
    // The same flags are not enough: a default that changed since, another starting policy, or a
    // run that did not keep what it ran with is refused too.
    const lines = readFileSync(join(dir, 'mentor-seed2.jsonl'), 'utf8').trim().split('\n');
    const summary = (JSON.parse(lines[lines.length - 1]) as { summary: Record<string, unknown> })
      .summary;
    expect(summary.config).toMatchObject({ seed: 2, prompts: 4 });
    const edited = (name: string, change: Record<string, unknown>) => {
      const folder = join(dir, name);
      mkdirSync(folder);
      const line = JSON.stringify({ summary: { ...summary, ...change } });
      writeFileSync(
        join(folder, 'mentor-seed2.jsonl'),
        [...lines.slice(0, -1), line, ''].join('\n'),
      );
      return again([], folder);
    };
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [
        'defaults',
        { config: { ...(summary.config as object), distillPrompts: 8 } },
        /other trainer settings/,
      ],
      ['base', { base_sha256: '0'.repeat(64) }, /started from another policy/],
      ['unkept', { config: undefined }, /written before runs kept what they ran with/],
      ['no flags', { args: undefined }, /written before runs kept what they ran with/],
      ['no base', { base_sha256: undefined }, /written before runs kept what they ran with/],
    ];
    // The settings as written, in another key order, are the same settings.
    const reordered = Object.fromEntries(Object.entries(summary.config as object).reverse());
    expect(edited('reordered', { config: reordered }).stdout).toMatch(/all read back from/);
    for (const [name, change, why] of cases) {
      const refused = edited(name, change);
      expect(refused.code, name).not.toBe(0);
      expect(refused.stderr).toMatch(why);
    }
  }, 120_000);
});
