import { afterEach, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpu-backend.ts';
import { spawnNodeThread } from '../engine/cpu/threads/node-threads.ts';
import { startThreadPool, stopThreadPool } from '../engine/cpu/threads/thread-pool.ts';
import { MODEL_SIZES, modelConfig } from './config.ts';
import { LANE_STEP_PROBE, stepProbe } from './step-probe.ts';
import { Transformer } from './transformer.ts';

afterEach(() => stopThreadPool());

/** Every weight after three GRPO-sized steps (sampling, then a training step) from seed 5. */
async function weightsAfterSteps(): Promise<Uint32Array[]> {
  const model = Transformer.create(new CpuBackend(), modelConfig(MODEL_SIZES[0], 48), 5);
  const probe = stepProbe(model, LANE_STEP_PROBE);
  for (let i = 0; i < 3; i++) await probe.run();
  const weights = await model.params.toTensors();
  probe.free();
  model.free();
  return weights.map((w) => new Uint32Array(Float32Array.from(w.data).buffer));
}

it('three sampling and training steps on a pool of threads give the weights of one thread bit for bit', async () => {
  const one = await weightsAfterSteps();
  expect(startThreadPool(2, spawnNodeThread).threads).toBe(2);
  const pooled = await weightsAfterSteps();
  expect(pooled).toHaveLength(one.length);
  pooled.forEach((w, i) => expect(w).toEqual(one[i]));
}, 60_000);
