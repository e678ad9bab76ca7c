import { TOOL_NODE_ARGS } from '../../scripts/tool-args.ts';
import type { TableRun } from './plan.ts';

/**
 * Node's arguments for a run, launched as `npm run experiment` is, so a run in a table computes
 * exactly what it computes for the same flags (without relaxed SIMD the sums round differently
 * and runs drift apart). Relative to the checkout's root.
 */
export function experimentNodeArgs(run: TableRun): string[] {
  return [...TOOL_NODE_ARGS, 'cli/experiment.ts', ...run.args];
}

/** `s` as one word to a POSIX shell: as it is where that is safe, else in single quotes. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=,+@%-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/** A run as one shell command, run from the checkout's root with the `node` on the PATH. */
export function experimentCommand(run: TableRun): string {
  return ['node', ...experimentNodeArgs(run)].map(shellWord).join(' ');
}
