import { describe, expect, it } from 'vitest';
import { nodeGpu } from '../engine/webgpu/node-gpu.ts';
import { WebGpuBackend } from '../engine/webgpu/webgpu-backend.ts';
import { checkNonFiniteRun, nonFiniteRun } from './testing/nonfinite-run.ts';
import { shapedGradientProblems } from './testing/shaped-gradient.ts';

describe('GRPO trainer on WebGPU', () => {
  it('skips an update whose gradient is NaN or infinite, and goes on (fault injection)', async () => {
    const r = await WebGpuBackend.create(nodeGpu());
    if (!r.ok) throw new Error(`no WebGPU in Node: ${r.reason}`);
    try {
      expect(checkNonFiniteRun(await nonFiniteRun(r.backend))).toEqual([]);
    } finally {
      r.backend.destroy();
    }
  });

  it('the shaped off-policy loss: its gradient on WebGPU matches finite differences', async () => {
    const r = await WebGpuBackend.create(nodeGpu());
    if (!r.ok) throw new Error(`no WebGPU in Node: ${r.reason}`);
    try {
      expect(await shapedGradientProblems(r.backend)).toEqual([]);
    } finally {
      r.backend.destroy();
    }
  });
});
