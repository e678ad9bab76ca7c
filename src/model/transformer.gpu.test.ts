import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeGpu } from '../engine/webgpu/node-gpu.ts';
import { WebGpuBackend } from '../engine/webgpu/webgpu-backend.ts';
import { MODEL_CHECKS } from './selfcheck/model-checks.ts';

describe('transformer on WebGPU (Dawn) against the CPU twin', () => {
  let be: WebGpuBackend;
  beforeAll(async () => {
    const r = await WebGpuBackend.create(nodeGpu());
    if (!r.ok) throw new Error(r.reason);
    be = r.backend;
  });
  afterAll(() => be.destroy());

  for (const check of MODEL_CHECKS) {
    it(check.name, async () => {
      const r = await check.run(be);
      expect(r.pass, r.detail).toBe(true);
    });
  }
});
