import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../src/model/config.ts';
import { CHECK_CONFIG } from '../../src/model/selfcheck/model-checks.ts';
import { TfPolicy } from './tfjs-model.ts';
import { runTfjs } from './tfjs.ts';
import { lossMismatch, peerWorkload, type PeerWorkload } from './workload.ts';

const OPTS = { batch: 3, trainLength: 12, minSeconds: 0 };
// CHECK_CONFIG has digit places and RoPE; the bench's tiny model has RoPE only.
const ROPE: ModelConfig = { ...CHECK_CONFIG, places: undefined };
const NOPE: ModelConfig = { ...ROPE, rope: false };

/**
 * The workload on the init weights with every matrix ×10. At init, attention is near-uniform
 * and the loss hardly depends on q and k (RoPE off moves it by 1e-6); ×10 makes it depend.
 */
async function workload(config: ModelConfig): Promise<PeerWorkload> {
  const init = await peerWorkload(config, OPTS);
  const sharp = init.tensors.map((t) => ({
    ...t,
    data: t.shape.length === 2 ? t.data.map((x) => 10 * x) : t.data,
  }));
  return peerWorkload(config, OPTS, sharp);
}

/** The TF.js model's losses of its first two training steps. */
function tfLosses(w: PeerWorkload): [number, number] {
  const model = new TfPolicy(w);
  try {
    const step = () => {
      const loss = model.trainStep();
      const value = loss.dataSync()[0];
      loss.dispose();
      return value;
    };
    return [step(), step()];
  } finally {
    model.dispose();
  }
}

describe('the TF.js peer', () => {
  beforeAll(async () => {
    tf.env().set('PROD', true);
    expect(await tf.setBackend('cpu')).toBe(true);
  });

  it.each([
    ['digit places and RoPE', CHECK_CONFIG],
    ['RoPE', ROPE],
    ['no positional encoding', NOPE],
  ])("has our CPU twin's loss before and after one AdamW step (%s)", async (_, config) => {
    const w = await workload(config);
    const before = tf.memory().numTensors;
    const [loss, after] = tfLosses(w);
    expect(lossMismatch(w, loss, after)).toBeNull();
    expect(Math.abs(loss - w.loss)).toBeLessThan(1e-5 * w.loss);
    expect(Math.abs(after - w.lossAfterStep)).toBeLessThan(1e-5 * w.lossAfterStep);
    // The step moved the weights, so the second loss checks gradients and the update too.
    expect(w.loss - w.lossAfterStep).toBeGreaterThan(1e-2);
    expect(tf.memory().numTensors).toBe(before);
  });

  // The check has to be able to fail: a model or an optimizer that is not ours is caught.
  it('fails the check without RoPE on a RoPE model', async () => {
    const w = await workload(ROPE);
    const [loss, after] = tfLosses({ ...w, config: NOPE });
    expect(lossMismatch(w, loss, after)).toMatch(/^loss \S+ is not ours/);
  });

  it('fails the check with weight decay 1 instead of 0.01', async () => {
    const w = await workload(ROPE);
    const [loss, after] = tfLosses({ ...w, optimizer: { ...w.optimizer, weightDecay: 1 } });
    expect(lossMismatch(w, loss, after)).toMatch(/^loss after one step \S+ is not ours/);
  });

  it('runs as a bench row on the cpu backend', async () => {
    const w = await peerWorkload(ROPE, OPTS);
    const r = await runTfjs('cpu', w);
    expect(r.status).toBe('ok');
    if (r.status !== 'ok') return;
    expect(r.peer).toMatch(/^TF\.js 4\.\d+\.\d+ · cpu$/);
    expect(r.steps).toBeGreaterThanOrEqual(1);
    expect(r.tokensPerSecond).toBeCloseTo((OPTS.batch * OPTS.trainLength * 1000) / r.stepMs, 6);
  });
});
