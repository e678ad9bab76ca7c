import { describe, expect, it } from 'vitest';
import type { Backend } from '../../engine/backend.ts';
import { CpuBackend } from '../../engine/cpu/cpu-backend.ts';
import { stepProbe } from '../../model/step-probe.ts';
import { Transformer } from '../../model/transformer.ts';
import { TEST_MODEL_CONFIG } from '../../rl/testing/test-model-config.ts';
import { chooseByMeasuring } from './measured-backend.ts';

/** A backend that only has a name and remembers being destroyed: all the chooser touches. */
function fakeBackend(name: string): Backend & { destroyed: boolean } {
  const be = {
    name,
    destroyed: false,
    destroy() {
      be.destroyed = true;
    },
  };
  // The chooser reads `name` and calls `destroy`; the rest of Backend is the probe's business.
  return be as unknown as Backend & { destroyed: boolean };
}

/** A clock the probes move: a probe run on a backend takes that backend's ms (first runs slower). */
function fakeProbes(ms: Record<string, number>, fail: string[] = []) {
  let t = 0;
  const runs: string[] = [];
  const probe = async (be: Backend) => {
    if (fail.includes(be.name)) throw new Error(`no ${be.name} device`);
    let first = true;
    return {
      async run() {
        runs.push(be.name);
        // The first run compiles pipelines: far slower, and not timed.
        t += first ? 50 * ms[be.name] : ms[be.name];
        first = false;
      },
      free() {},
    };
  };
  return { probe, now: () => t, runs };
}

describe('the backend chosen by measuring', () => {
  it('keeps a fast GPU over the CPU twin, destroys the other, and says why', async () => {
    const [gpu, cpu] = [fakeBackend('WebGPU'), fakeBackend('CPU')];
    const { probe, now, runs } = fakeProbes({ WebGPU: 8, CPU: 30 });
    const c = await chooseByMeasuring([gpu, cpu], probe, { runs: 2, budgetMs: 1000 }, now);
    expect(c.chosen).toBe(gpu);
    expect(cpu.destroyed && !gpu.destroyed).toBe(true);
    expect(c.timings).toEqual([
      { name: 'WebGPU', ms: 8 },
      { name: 'CPU', ms: 30 },
    ]);
    expect(c.why).toBe(
      'the faster here: a step took 8.0 ms on it against CPU 30 ms (measured at start; ?backend= forces one)',
    );
    // An untimed first run, then the timed ones.
    expect(runs).toEqual(['WebGPU', 'WebGPU', 'WebGPU', 'CPU', 'CPU', 'CPU']);
  });

  it('keeps the CPU twin where the GPU is slower (a small model: dispatch latency)', async () => {
    const [gpu, cpu] = [fakeBackend('WebGPU'), fakeBackend('CPU')];
    const { probe, now } = fakeProbes({ WebGPU: 120, CPU: 45 });
    const c = await chooseByMeasuring([gpu, cpu], probe, { runs: 3, budgetMs: 1000 }, now);
    expect(c.chosen).toBe(cpu);
    expect(gpu.destroyed).toBe(true);
    expect(c.why).toContain('a step took 45 ms on it against WebGPU 120 ms');
  });

  it('stops timing a backend once its budget is spent, after one timed run at least', async () => {
    const { probe, now, runs } = fakeProbes({ WebGPU: 900, CPU: 10 });
    await chooseByMeasuring(
      [fakeBackend('WebGPU'), fakeBackend('CPU')],
      probe,
      { runs: 5, budgetMs: 500 },
      now,
    );
    expect(runs.filter((r) => r === 'WebGPU')).toHaveLength(2);
    expect(runs.filter((r) => r === 'CPU')).toHaveLength(6);
  });

  it('passes over a backend whose probe fails, saying so', async () => {
    const [gpu, cpu] = [fakeBackend('WebGPU'), fakeBackend('CPU')];
    const { probe, now } = fakeProbes({ CPU: 40 }, ['WebGPU']);
    const c = await chooseByMeasuring([gpu, cpu], probe, undefined, now);
    expect(c.chosen).toBe(cpu);
    expect(c.timings[0]).toEqual({ name: 'WebGPU', ms: null, error: 'no WebGPU device' });
    expect(c.why).toContain('against WebGPU failed (no WebGPU device)');
  });

  it('times a real step of a model on the CPU twin', async () => {
    const be = new CpuBackend();
    const c = await chooseByMeasuring([be], async (b) =>
      stepProbe(Transformer.create(b, TEST_MODEL_CONFIG, 1), {
        prompts: 2,
        answers: 2,
        promptLength: 4,
        newTokens: 2,
      }),
    );
    expect(c.chosen).toBe(be);
    expect(c.timings[0].ms).toBeGreaterThan(0);
    expect(c.why).toMatch(/^the only one here: a step took [\d.]+ ms on it$/);
  });
});
