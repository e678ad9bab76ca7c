import { spawnSync } from 'node:child_process';
import { TOOL_NODE_ARGS } from '../../scripts/tool-args.ts';

/** `npm run <name> -- …` without npm, launched as scripts/cli.ts launches it. */
export function runTool(name: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [...TOOL_NODE_ARGS, `cli/${name}.ts`, ...args], {
    encoding: 'utf8',
  });
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
