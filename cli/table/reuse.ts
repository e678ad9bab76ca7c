import { existsSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { parseRun, type RunRecord } from '../../src/research/results.ts';
import { checkpointSha256, readBaseCheckpoint } from '../base-checkpoint.ts';
import { modelOf, taskOf } from '../common-flags.ts';
import { EXPERIMENT_FLAGS, experimentConfig } from '../experiment-config.ts';
import { UsageError, parseFlags } from '../flags.ts';
import { isModulePath } from '../module-method/module-intervention.ts';
import { isTaskPath } from '../task-module/load-task.ts';
import type { TableRun } from './plan.ts';

/**
 * A run's flags less those that do not change what it computes: `--out` (where it is written)
 * and `--threads` (how many threads its kernels use: any number gives the same numbers).
 */
export function definingFlags(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out' || args[i] === '--threads') i++;
    else if (!/^--(out|threads)=/.test(args[i])) out.push(args[i]);
  }
  return out;
}

/**
 * Why a finished run is not the one `npm run experiment` with `args` would be, or null if it is:
 * the same flags, the same trainer settings (a trainer default changed since shows; the
 * interventions' own defaults do not) and the same starting policy. Where it was written (a copy
 * from another table) does not matter.
 */
function unlike(ran: RunRecord, args: string[]): string | null {
  if (!ran.args || ran.config === null || ran.baseSha256 === null)
    return 'was written before runs kept what they ran with, so it cannot be told apart';
  if (definingFlags(ran.args).join('\0') !== definingFlags(args).join('\0'))
    return `was run with other flags (${ran.args.join(' ')})`;
  const f = parseFlags(args, EXPERIMENT_FLAGS);
  // Through JSON, as the run wrote it; compared by value, whatever the order of the keys.
  const config: unknown = JSON.parse(JSON.stringify(experimentConfig(f)));
  if (!isDeepStrictEqual(ran.config, config))
    return 'was run with other trainer settings (a trainer default has changed since)';
  const base = readBaseCheckpoint(taskOf(f).task, modelOf(f), f.init);
  if (ran.baseSha256 !== checkpointSha256(base))
    return 'started from another policy (the checkpoint has changed since)';
  const method = String(f.method);
  if (isModulePath(method) && ran.methodSha256 !== checkpointSha256(readFileSync(method)))
    return `ran other code (${method} has changed since)`;
  const task = String(f.task);
  if (isTaskPath(task) && ran.taskSha256 !== checkpointSha256(readFileSync(task)))
    return `ran another task (${task} has changed since)`;
  return null;
}

/**
 * Whether `run`'s output file holds it finished. A finished run that is not the one the plan would
 * run is refused (UsageError, naming `flag`), not taken, nor run again over it.
 */
export function isFinished(run: TableRun, flag: string): boolean {
  if (!existsSync(run.out)) return false;
  const text = readFileSync(run.out, 'utf8');
  if (!text.includes('"summary"')) return false;
  const why = unlike(parseRun(text), run.args);
  if (why)
    throw new UsageError(`${flag}: ${run.out} ${why}; move it away or pick another --out-dir`);
  return true;
}

/** The plan's runs still to run: all of them, or with `reuse` those not finished yet. */
export function stillToRun(plan: readonly TableRun[], reuse: boolean): TableRun[] {
  return plan.filter((r) => !reuse || !isFinished(r, '--reuse'));
}
