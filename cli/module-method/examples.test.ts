import { describe, expect, it } from 'vitest';
import { runTool, stepLines } from '../testing/run-tool.ts';

/** A run's step lines with the method's name (and the author it defaults to) left out. */
function unnamed(jsonl: string): unknown[] {
  return stepLines(jsonl).map(({ method: _m, interventions, ...rest }) => ({
    ...rest,
    interventions: (interventions as { author: string }[]).map(({ author: _a, ...r }) => r),
  }));
}

// The examples of docs/examples/, run as a person would run them.
describe('the example module methods', () => {
  const flags = ['--task', 'arithmetic', '--seed', '3', '--steps', '4', '--schedule', '0:4'];
  const small = ['--prompts', '4', '--eval-every', '2', '--eval-size', '8'];

  it('offpolicy.js, the rival written against the public API, trains exactly as the built-in rival', () => {
    const builtIn = runTool('experiment', ...flags, ...small, '--method', 'offpolicy');
    const module = runTool(
      'experiment',
      ...flags,
      ...small,
      '--method',
      'docs/examples/offpolicy.js',
    );
    expect(builtIn.code, builtIn.stderr).toBe(0);
    expect(module.code, module.stderr).toBe(0);
    expect(stepLines(module.stdout)[0].method).toBe('offpolicy-js');
    expect(stepLines(module.stdout).some((s) => (s.interventions as unknown[]).length > 0)).toBe(
      true,
    );
    expect(unnamed(module.stdout)).toEqual(unnamed(builtIn.stdout));
  }, 120_000);

  it('length-hint.js helps every all-fail group with the answer length', () => {
    const r = runTool('experiment', ...flags, ...small, '--method', 'docs/examples/length-hint.js');
    expect(r.code, r.stderr).toBe(0);
    const notes = stepLines(r.stdout).flatMap((s) =>
      (s.interventions as { note: string }[]).map((i) => i.note),
    );
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((n) => /^All 8 failed; hinted the length \(\d\)\.$/.test(n))).toBe(true);
  }, 120_000);
});
