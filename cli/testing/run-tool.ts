import { spawnSync } from 'node:child_process';

/**
 * `npm run <name> -- …` without npm, launched as scripts/cli.ts launches it (relaxed SIMD where
 * the runtime has it, the `?raw` loader), so what it computes is what the command computes.
 */
export function runTool(name: string, ...args: string[]) {
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

/** The step lines of an experiment's JSONL, without their timing (which differs run to run). */
export function stepLines(jsonl: string): Record<string, unknown>[] {
  return jsonl
    .split('\n')
    .filter((l) => l.startsWith('{"step"'))
    .map((l) => {
      const { tokens_per_s: _t, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return rest;
    });
}
