import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CHECK_CONFIG } from '../../src/model/selfcheck/model-checks.ts';
import { OPENBLAS_DIR, PYTHON, runTorch, torchEnv } from './torch.ts';
import { peerWorkload } from './workload.ts';

const OPTS = { batch: 3, trainLength: 12, minSeconds: 0 };
const hasTorch = spawnSync(PYTHON, ['-c', 'import torch']).status === 0;

describe('the PyTorch peer', () => {
  it('runs on one thread, with OpenBLAS first on the library path where installed', () => {
    const env = torchEnv(
      { LD_LIBRARY_PATH: `/usr/lib/chromium:${OPENBLAS_DIR}`, HOME: '/h' },
      true,
    );
    expect(env.LD_LIBRARY_PATH).toBe(`${OPENBLAS_DIR}:/usr/lib/chromium`);
    expect(env).toMatchObject({ OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1', HOME: '/h' });
    expect(torchEnv({}, false).LD_LIBRARY_PATH).toBeUndefined();
    expect(torchEnv({}, true).LD_LIBRARY_PATH).toBe(OPENBLAS_DIR);
  });

  it('is a row saying why where there is no PyTorch', async () => {
    const w = await peerWorkload(CHECK_CONFIG, OPTS);
    expect(await runTorch(w, '/nonexistent/python3')).toEqual({
      peer: 'PyTorch',
      status: 'unavailable',
      reason: 'no PyTorch (/nonexistent/python3 did not start)',
    });
  });

  // CI has no PyTorch; where Debian's python3-torch is installed this runs scripts/torch_bench.py.
  it.skipIf(!hasTorch)("has our CPU twin's loss before and after one step", async () => {
    const w = await peerWorkload(CHECK_CONFIG, OPTS);
    const r = await runTorch(w);
    expect(r).toMatchObject({ status: 'ok', peer: expect.stringMatching(/^PyTorch \S+ · /) });
    if (r.status !== 'ok') return;
    expect(Math.abs(r.loss - w.loss)).toBeLessThan(1e-5 * w.loss);
    expect(Math.abs(r.lossAfterStep - w.lossAfterStep)).toBeLessThan(1e-5 * w.lossAfterStep);
    expect(r.detail).toMatch(/^1 thread, /);
  });
});
