import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CHECK_CONFIG } from '../../src/model/selfcheck/model-checks.ts';
import {
  DECODE_LOGIT_TOL,
  OPENBLAS_DIR,
  PYTHON,
  runTorch,
  torchDecoding,
  torchEnv,
} from './torch.ts';
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

  it("runs on OpenBLAS's own choice of kernel, on the threads asked for", () => {
    const env = torchEnv(
      { OPENBLAS_CORETYPE: 'Haswell', OPENBLAS_L2_SIZE: '1', HOME: '/h' },
      true,
      2,
    );
    expect(env.OPENBLAS_CORETYPE).toBeUndefined();
    expect(env.OPENBLAS_L2_SIZE).toBeUndefined();
    expect(env).toMatchObject({ OMP_NUM_THREADS: '2', OPENBLAS_NUM_THREADS: '2', HOME: '/h' });
  });

  it('is a row saying why where there is no PyTorch', async () => {
    const w = await peerWorkload(CHECK_CONFIG, OPTS);
    expect(await runTorch(w, '/nonexistent/python3')).toEqual({
      peer: 'PyTorch',
      status: 'unavailable',
      reason: 'no PyTorch (/nonexistent/python3 did not start)',
    });
  });

  it('takes its decoding only where the cache gave the whole forward pass', () => {
    expect(torchDecoding(undefined)).toBeUndefined();
    expect(torchDecoding(null)).toBeUndefined();
    expect(torchDecoding({ msPerToken: 0.6, steps: 70, maxLogitDiff: 2e-6 })).toEqual({
      status: 'ok',
      msPerToken: 0.6,
      steps: 70,
    });
    expect(
      torchDecoding({ msPerToken: 0.6, steps: 70, maxLogitDiff: 10 * DECODE_LOGIT_TOL }),
    ).toEqual({
      status: 'failed',
      reason: expect.stringMatching(
        /cached logits differ from a whole forward pass by 0\.001, more than 0\.0001/,
      ),
    });
    expect(torchDecoding({ msPerToken: 0.6, steps: 70, maxLogitDiff: NaN })).toMatchObject({
      status: 'failed',
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
    expect(r.decoding).toBeUndefined();
  });

  it.skipIf(!hasTorch)('decodes with a KV cache that gives the whole forward pass', async () => {
    const w = await peerWorkload(CHECK_CONFIG, { ...OPTS, promptLengths: [5], newTokens: 4 });
    expect(w.decode).toEqual({ B: 3, promptLength: 5, newTokens: 4 });
    const r = await runTorch(w);
    expect(r.status).toBe('ok');
    if (r.status !== 'ok') return;
    // Three timed steps a run: the first new token comes with the prefill.
    expect(r.decoding).toMatchObject({ status: 'ok', steps: 3 });
    if (r.decoding?.status === 'ok') expect(r.decoding.msPerToken).toBeGreaterThan(0);
  });
});
