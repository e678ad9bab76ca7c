// Test-only: a short GRPO run on the bandit in which two updates meet a NaN and an infinite
// gradient, on any backend (the unit suite runs it on the CPU, the wgsl suite on WebGPU).
import type { Backend } from '../../engine/backend.ts';
import { FaultyBackend } from '../../engine/testing/faulty-backend.ts';
import { Transformer } from '../../model/transformer.ts';
import { noIntervention } from '../intervention.ts';
import type { StepMetrics } from '../metrics.ts';
import { GrpoTrainer } from '../trainer.ts';
import { bandit, config } from './bandit.ts';
import { TEST_MODEL_CONFIG } from './test-model-config.ts';

export interface NonFiniteRun {
  metrics: StepMetrics[];
  /** Each step's weights, flattened, after the step. */
  weights: Float32Array[];
  before: Float32Array;
}

export async function nonFiniteRun(be: Backend, steps = 8): Promise<NonFiniteRun> {
  const faulty = new FaultyBackend(be);
  const model = Transformer.create(faulty, TEST_MODEL_CONFIG, 3);
  const trainer = new GrpoTrainer(
    faulty,
    model,
    bandit,
    config({ prompts: 4, groupSize: 8, lr: 3e-3, lrWarmupSteps: 1, evalEvery: 1000 }),
    noIntervention,
  );
  const flat = async () =>
    Float32Array.from((await model.params.toTensors()).flatMap((t) => [...t.data]));
  const before = await flat();
  const metrics: StepMetrics[] = [];
  const weights: Float32Array[] = [];
  for (let s = 0; s < steps; s++) {
    if (s === 2) faulty.poisonGradients(NaN);
    if (s === 4) faulty.poisonGradients(Infinity);
    metrics.push(await trainer.trainStep());
    weights.push(await flat());
  }
  trainer.free();
  return { metrics, weights, before };
}

/** What a run with two poisoned updates must show: both skipped, nothing touched, then learning. */
export function checkNonFiniteRun(run: NonFiniteRun): string[] {
  const problems: string[] = [];
  const { metrics, weights, before } = run;
  const last = metrics.at(-1)!;
  if (last.skipped_steps !== 2) problems.push(`skipped_steps ${last.skipped_steps}, not 2`);
  metrics.forEach((m, s) => {
    const prev = s === 0 ? before : weights[s - 1];
    const skipped = m.skipped_steps > (s === 0 ? 0 : metrics[s - 1].skipped_steps);
    const same = weights[s].every((x, i) => Object.is(x, prev[i]));
    if (skipped && !same) problems.push(`step ${s} was skipped yet changed the weights`);
    if (skipped && !m.events.some((e) => e.includes('skipped')))
      problems.push(`step ${s}: no event`);
    if (!skipped && m.grad_norm !== null && same) problems.push(`step ${s} did not update`);
  });
  if (!weights.at(-1)!.every(Number.isFinite)) problems.push('the final weights are not finite');
  return problems;
}
