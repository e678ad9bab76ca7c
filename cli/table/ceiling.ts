import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { loadCheckpoint } from '../../src/model/checkpoint.ts';
import {
  DEFAULT_CEILING_EASY_SHARE,
  supervisedCeiling,
  type CeilingOptions,
  type CeilingPoint,
} from '../../src/research/ceiling.ts';
import { DEFAULT_GRPO, type GrpoConfig } from '../../src/rl/config.ts';
import type { FamilyEntry } from '../../src/tasks/index.ts';
import { cliBackend } from '../backend.ts';
import { checkpointSha256, readBaseCheckpoint } from '../base-checkpoint.ts';

/** One seed of the supervised reference: how it was trained, its evals, and how long it took. */
export interface SupervisedRun {
  seed: number;
  opts: CeilingOptions;
  points: CeilingPoint[];
  wallS: number;
}

/** The settings of the runs that a supervised run matches: RL's budget and its evals. */
type RunSettings = Pick<
  GrpoConfig,
  'prompts' | 'lr' | 'evalEvery' | 'evalDenseEvery' | 'evalDenseSteps' | 'evalSize'
>;

/**
 * The supervised reference at RL's budget, one run per seed: as many examples a step as the runs
 * have prompts, at their learning rate, for the steps after the jump, measured on their evals (the
 * dense ones included), from the runs' base. Each is kept in `dir` so a --reuse table reads it
 * back where it was trained alike from the same base.
 */
export async function supervisedAtRlBudget(
  task: string,
  init: string | undefined,
  entry: FamilyEntry,
  seeds: readonly number[],
  steps: number,
  runs: Partial<RunSettings> | null,
  dir: string,
  reuse: boolean,
): Promise<SupervisedRun[]> {
  const s: RunSettings = { ...DEFAULT_GRPO, ...runs };
  const bytes = readBaseCheckpoint(task, 'tiny', init);
  const baseSha256 = checkpointSha256(bytes);
  const out: SupervisedRun[] = [];
  for (const seed of seeds) {
    const opts: CeilingOptions = {
      seed,
      steps,
      batch: s.prompts,
      lr: s.lr,
      easyShare: DEFAULT_CEILING_EASY_SHARE,
      evalEvery: s.evalEvery,
      evalDenseEvery: s.evalDenseEvery,
      evalDenseSteps: s.evalDenseSteps,
      evalSize: s.evalSize,
    };
    const file = join(dir, `supervised-s${seed}.json`);
    if (reuse && existsSync(file)) {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as SupervisedRun & {
        base_sha256?: string;
      };
      if (isDeepStrictEqual(saved.opts, opts) && saved.base_sha256 === baseSha256) {
        out.push({ seed, opts, points: saved.points, wallS: saved.wallS });
        continue;
      }
    }
    const { model } = loadCheckpoint(await cliBackend('cpu'), bytes);
    console.error(`[supervised] seed ${seed}: level ${entry.collapse.hard}, ${steps} steps`);
    const t0 = performance.now();
    const points = await supervisedCeiling(model, entry.training, entry.collapse, opts);
    const run = { seed, opts, points, wallS: (performance.now() - t0) / 1000 };
    writeFileSync(file, `${JSON.stringify({ ...run, base_sha256: baseSha256 })}\n`);
    out.push(run);
  }
  return out;
}
