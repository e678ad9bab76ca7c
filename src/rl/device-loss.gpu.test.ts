import { describe, expect, it } from 'vitest';
import { FaultyBackend } from '../engine/testing/faulty-backend.ts';
import { nodeGpu } from '../engine/webgpu/node-gpu.ts';
import { WebGpuBackend } from '../engine/webgpu/webgpu-backend.ts';
import { ParameterStore } from '../model/parameters.ts';
import { Transformer } from '../model/transformer.ts';
import { noIntervention } from './intervention.ts';
import type { StepMetrics } from './metrics.ts';
import { GrpoTrainer } from './trainer.ts';
import type { TrainingState } from './training-state.ts';
import { bandit, config } from './testing/bandit.ts';
import { TEST_MODEL_CONFIG } from './testing/test-model-config.ts';

const STEPS = 24;
const LOSSES = 20;

async function gpu(): Promise<{ be: FaultyBackend; device: GPUDevice }> {
  const r = await WebGpuBackend.create(nodeGpu());
  if (!r.ok) throw new Error(`no WebGPU in Node: ${r.reason}`);
  return { be: new FaultyBackend(r.backend), device: r.backend.device };
}

function trainer(model: Transformer): GrpoTrainer {
  const c = config({
    prompts: 4,
    groupSize: 8,
    lr: 3e-3,
    lrWarmupSteps: 2,
    evalEvery: 4,
    evalSize: 8,
  });
  return new GrpoTrainer(model.be, model, bandit, c, noIntervention);
}

const comparable = (ms: StepMetrics[]) => ms.map(({ tokens_per_s: _, ...rest }) => rest);

describe('device loss on WebGPU', () => {
  it('lost 20 times mid-step: each loss costs only the step in flight, and the metrics are those of a run without a loss', async () => {
    const first = await gpu();
    const whole: StepMetrics[] = [];
    const plain = trainer(Transformer.create(first.be, TEST_MODEL_CONFIG, 3));
    for (let s = 0; s < STEPS; s++) whole.push(await plain.trainStep());
    // A step's launches, to lose the device at different points of different steps.
    const launchesPerStep = Math.floor(first.be.dispatchCount / STEPS);
    first.be.destroy();

    let { be, device } = await gpu();
    let t = trainer(Transformer.create(be, TEST_MODEL_CONFIG, 3));
    let latest: TrainingState = await t.saveState();
    const metrics: StepMetrics[] = [];
    let losses = 0;
    let reruns = 0;
    while (t.step < STEPS) {
      const lose = losses < LOSSES && t.step >= 2;
      if (lose) be.failAtLaunch(((losses * 7919) % launchesPerStep) + 1, () => device.destroy());
      try {
        const m = await t.trainStep();
        latest = await t.saveState();
        metrics.push(m);
      } catch {
        // The lane worker's recovery: a new device, the state after the last good step.
        expect(lose).toBe(true);
        losses++;
        reruns++;
        ({ be, device } = await gpu());
        const state = structuredClone(latest);
        const model = new Transformer(
          be,
          ParameterStore.fromTensors(be, state.model, state.weights),
        );
        t = trainer(model);
        await t.restoreState(state);
        expect(t.step).toBe(metrics.length);
      }
    }
    expect(losses).toBe(LOSSES);
    // Each loss cost one step, run again: never more.
    expect(reruns).toBe(LOSSES);
    expect(comparable(metrics)).toEqual(comparable(whole));
    expect(metrics.filter((m) => m.grad_norm !== null).length).toBeGreaterThan(STEPS / 2);
    be.destroy();
  }, 600_000);
});
