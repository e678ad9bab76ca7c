// What the trainer's tests share: probes of what an update trains on, interventions that help
// every group, and the small trainers the tests build.
import { CpuBackend } from '../../engine/cpu/cpu-backend.ts';
import type { TokenBatch } from '../../model/batch.ts';
import { Transformer } from '../../model/transformer.ts';
import { customEntry } from '../../tasks/custom/custom-entry.ts';
import type { TaskModule } from '../../tasks/custom/task-module.ts';
import { createArithmetic, decode, type Problem, type TaskFamily } from '../../tasks/index.ts';
import type { GrpoConfig } from '../config.ts';
import { attempt } from '../sampler.ts';
import {
  noIntervention,
  type Help,
  type Intervention,
  type Reprompt,
  type ScoredGroup,
} from '../intervention.ts';
import { GrpoTrainer } from '../trainer.ts';
import { bandit, config } from './bandit.ts';
import { TEST_MODEL_CONFIG } from './test-model-config.ts';

/** What the policy update trains on: each packed batch, with the row weights of its backward. */
export function recordUpdates(model: Transformer): { batch: TokenBatch; weights?: Float32Array }[] {
  const updates: { batch: TokenBatch; weights?: Float32Array }[] = [];
  let last: TokenBatch | null = null;
  const forward = model.forwardTrain.bind(model);
  model.forwardTrain = (b) => {
    last = b;
    forward(b);
  };
  const backward = model.backward.bind(model);
  model.backward = (w?: Float32Array) => {
    if (last) updates.push({ batch: last, weights: w && Float32Array.from(w) });
    backward(w);
  };
  return updates;
}

/** A retry with no help in the prompt: the group sampled again. */
export const RESAMPLE: Help = { kind: 'retry', learn: 'as-sampled' };

export const demonstration = (
  answer: string,
  count: number,
  weight: 'shaped' | 'plain' = 'shaped',
): Help => ({
  kind: 'demonstration',
  answer,
  count,
  weight,
});

/** An intervention that gives every group of every step the same help. */
export function helpEveryGroup(name: string, help: Omit<Reprompt, 'group'>): Intervention {
  return {
    name,
    async plan(batch) {
      return batch.groups.map((g) => ({ group: g.group, ...help }));
    },
  };
}

/** Every trained row of the recorded updates: its text, and the weights that are not 0. */
export function trainedRows(
  updates: readonly { batch: TokenBatch; weights?: Float32Array }[],
): { text: string; taking: number[] }[] {
  return updates.flatMap(({ batch, weights }) =>
    Array.from({ length: batch.B }, (_, i) => ({
      text: rowText(batch, i),
      taking: weights
        ? Array.from(weights.subarray(i * batch.T, (i + 1) * batch.T)).filter((x) => x !== 0)
        : [],
    })),
  );
}

/**
 * One step of an untrained policy on 3-digit sums (every group fails) whose intervention plans
 * `plan(groups)` in the first round only; the updates it made are recorded.
 */
export async function writtenAnswerStep(
  prompts: number,
  plan: (groups: ScoredGroup[]) => Reprompt[],
) {
  const model = Transformer.create(
    new CpuBackend(),
    { ...TEST_MODEL_CONFIG, contextLength: 32 },
    7,
  );
  const c = config({ prompts, groupSize: 4, lr: 1e-3, lrWarmupSteps: 1, evalEvery: 1000 });
  const writer: Intervention = {
    name: 'writer',
    async plan(batch) {
      return batch.round > 0 ? [] : plan(batch.groups);
    },
  };
  const trainer = new GrpoTrainer(
    model.be,
    model,
    createArithmetic({ ops: ['+'] }),
    { ...c, task: 'arithmetic', schedule: [{ step: 0, level: 3 }] },
    writer,
  );
  const updates = recordUpdates(model);
  const m = await trainer.trainStep();
  return { trainer, updates, m };
}

/** A trainer of a fresh test-sized policy on the CPU (its weights drawn from `seed`) on `family`. */
export function testTrainer(
  family: TaskFamily,
  c: GrpoConfig,
  help: Intervention = noIntervention,
  seed = 3,
): GrpoTrainer {
  const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, seed);
  return new GrpoTrainer(model.be, model, family, c, help);
}

/** A trainer on the bandit: G = 4, one round of help, seed 4 (`patch` changes any of it). */
export function banditTrainer(
  prompts: number,
  help: Intervention,
  patch: Partial<GrpoConfig> = {},
): GrpoTrainer {
  return testTrainer(
    bandit,
    config({ prompts, groupSize: 4, maxRounds: 1, seed: 4, ...patch }),
    help,
  );
}

/** Plain GRPO on a one-level task module whose answers are `a` or `b`, on the test model. */
export function taskModuleTrainer(
  task: TaskModule,
  prompts: number,
  groupSize: number,
): GrpoTrainer {
  const entry = customEntry(task, { answerChars: 'ab', maxTokens: [24] });
  return testTrainer(
    entry.training as unknown as TaskFamily,
    config({ prompts, groupSize, evalEvery: 1000, task: entry.family.id }),
  );
}

/** One step of `prompts` bandit groups, each given `help`, with the updates it made. */
export async function oneHelpedStep(help: Help, prompts = 1, patch: Partial<GrpoConfig> = {}) {
  const trainer = banditTrainer(prompts, helpEveryGroup('helper', { help, note: 'help' }), patch);
  const updates = recordUpdates(trainer.model);
  return { trainer, updates, m: await trainer.trainStep() };
}

/** Row i of a packed batch, from its first real column. */
export function rowText(b: TokenBatch, i: number): string {
  return decode(b.tokens.subarray(i * b.T + b.start[i], (i + 1) * b.T));
}

/** The share of right answers sampled at temperature 1 for `problems`. */
export async function rewardRate(
  model: Transformer,
  family: TaskFamily,
  problems: Problem[],
  seed: number,
): Promise<number> {
  const atts = await attempt(
    model,
    family,
    problems.map((problem) => ({ problem, cue: {} })),
    { temperature: 1, seed, counter: 0 },
  );
  return atts.filter((a) => a.verdict.reward === 1).length / atts.length;
}
