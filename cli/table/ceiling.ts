import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { loadCheckpoint } from '../../src/model/checkpoint.ts';
import {
  DEFAULT_CEILING_EASY_SHARE,
  supervisedCeiling,
  type CeilingOptions,
  type CeilingPoint,
} from '../../src/research/ceiling.ts';
import { DEFAULT_GRPO } from '../../src/rl/config.ts';
import type { FamilyEntry } from '../../src/tasks/index.ts';
import { cliBackend } from '../backend.ts';
import { checkpointSha256, readBaseCheckpoint } from '../base-checkpoint.ts';

/** The supervised ceiling as the table shows it: how it was trained, and its evals. */
export interface TableCeiling {
  opts: CeilingOptions;
  points: CeilingPoint[];
}

/**
 * The supervised ceiling at RL's budget — as many examples a step as GRPO has prompts, at its
 * learning rate, for the steps after the jump — on the shipped base; kept in `file` so a --reuse
 * run reads it back (where it was trained alike from the same base).
 */
export async function ceilingAtRlBudget(
  task: string,
  entry: FamilyEntry,
  steps: number,
  file: string,
  reuse: boolean,
): Promise<TableCeiling> {
  const opts: CeilingOptions = {
    seed: 1,
    steps,
    batch: DEFAULT_GRPO.prompts,
    lr: DEFAULT_GRPO.lr,
    easyShare: DEFAULT_CEILING_EASY_SHARE,
    evalEvery: DEFAULT_GRPO.evalEvery,
    evalSize: DEFAULT_GRPO.evalSize,
  };
  const bytes = readBaseCheckpoint(task, 'tiny', undefined);
  const baseSha256 = checkpointSha256(bytes);
  if (reuse && existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as {
      opts: CeilingOptions;
      base_sha256?: string;
      points: CeilingPoint[];
    };
    if (isDeepStrictEqual(saved.opts, opts) && saved.base_sha256 === baseSha256)
      return { opts, points: saved.points };
  }
  const { model } = loadCheckpoint(await cliBackend('cpu'), bytes);
  console.error(`[ceiling] supervised at level ${entry.collapse.hard}, ${steps} steps`);
  const points = await supervisedCeiling(model, entry.training, entry.collapse, opts);
  writeFileSync(file, `${JSON.stringify({ opts, base_sha256: baseSha256, points })}\n`);
  return { opts, points };
}
