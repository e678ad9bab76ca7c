// PyTorch as a peer of the bench: scripts/torch_bench.py in Debian's Python, on the workload's
// weights (a checkpoint) and batch (JSON) written to a temporary folder.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CHECKPOINT_FORMAT } from '../../src/model/checkpoint.ts';
import { serializeSafetensors } from '../../src/model/safetensors.ts';
import { verdict, type PeerDecoding, type PeerResult } from './result.ts';
import type { PeerWorkload } from './workload.ts';

/** Debian's Python: a pyenv or venv python3 earlier on PATH does not see python3-torch. */
export const PYTHON = '/usr/bin/python3';
/**
 * Debian's OpenBLAS (apt-get install libopenblas0-openmp). Debian's torch links libblas.so.3,
 * the reference BLAS unless the system's alternative says otherwise; this folder first on
 * LD_LIBRARY_PATH makes it OpenBLAS's.
 */
export const OPENBLAS_DIR = '/usr/lib/x86_64-linux-gnu/openblas-openmp';
const SCRIPT = fileURLToPath(new URL('../../scripts/torch_bench.py', import.meta.url));

/** What torch_bench.py prints. */
interface TorchOutput {
  loss: number;
  lossAfterStep: number;
  stepMs: number;
  steps: number;
  torch: string;
  threads: number;
  blas: string;
  blasLibraries: string[];
  blasInfo: string | null;
  /** Absent when no decoding was asked for. */
  decoding?: { msPerToken: number; steps: number; maxLogitDiff: number } | null;
}

/** Largest gap between the cached decoding's last logits and the whole sequence's forward. */
export const DECODE_LOGIT_TOL = 1e-4;

/** The decoding row from what torch_bench.py printed: failed where its cache is not right. */
export function torchDecoding(out: TorchOutput['decoding']): PeerDecoding | undefined {
  if (!out) return undefined;
  if (!(out.maxLogitDiff <= DECODE_LOGIT_TOL))
    return {
      status: 'failed',
      reason: `its cached logits differ from a whole forward pass by ${out.maxLogitDiff}, more than ${DECODE_LOGIT_TOL}`,
    };
  return { status: 'ok', msPerToken: out.msPerToken, steps: out.steps };
}

/**
 * The environment of the Python process: `threads` threads everywhere, OpenBLAS where installed,
 * on its own choice of kernel — the machine's OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE pin (set for
 * older builds that miscompute on some processors) slows it, so it is unset here, for this
 * process alone.
 */
export function torchEnv(env: NodeJS.ProcessEnv, openblas = existsSync(OPENBLAS_DIR), threads = 1) {
  const n = String(threads);
  const out: NodeJS.ProcessEnv = { ...env, OMP_NUM_THREADS: n, OPENBLAS_NUM_THREADS: n };
  delete out.OPENBLAS_CORETYPE;
  delete out.OPENBLAS_L2_SIZE;
  if (openblas) {
    const rest = (env.LD_LIBRARY_PATH ?? '').split(':').filter((p) => p && p !== OPENBLAS_DIR);
    out.LD_LIBRARY_PATH = [OPENBLAS_DIR, ...rest].join(':');
  }
  return out;
}

/** Runs the workload in PyTorch. Without PyTorch, or when the script fails, the row says why. */
export async function runTorch(w: PeerWorkload, python = PYTHON, threads = 1): Promise<PeerResult> {
  const probe = spawnSync(python, ['-c', 'import torch'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    const why = probe.error ? `${python} did not start` : `${python} cannot import torch`;
    return { peer: 'PyTorch', status: 'unavailable', reason: `no PyTorch (${why})` };
  }
  const dir = mkdtempSync(join(tmpdir(), 'mentor-peers-'));
  try {
    const weights = join(dir, 'weights.safetensors');
    const batch = join(dir, 'batch.json');
    const config = JSON.stringify(w.config);
    writeFileSync(weights, serializeSafetensors(w.tensors, { format: CHECKPOINT_FORMAT, config }));
    writeFileSync(
      batch,
      JSON.stringify({
        B: w.batch.B,
        T: w.batch.T,
        tokens: [...w.batch.tokens],
        targets: [...w.batch.targets],
        weights: [...w.weights],
        optimizer: w.optimizer,
        minSeconds: w.minSeconds,
        decode: w.decode ?? null,
      }),
    );
    let out: TorchOutput;
    try {
      const { stdout } = await promisify(execFile)(python, [SCRIPT, weights, batch], {
        env: torchEnv(process.env, undefined, threads),
        maxBuffer: 16 * 1024 * 1024,
      });
      out = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as TorchOutput;
    } catch (e) {
      const err = e as Error & { stderr?: string };
      const last = err.stderr?.trim().split('\n').at(-1);
      return {
        peer: 'PyTorch',
        status: 'failed',
        reason: `torch_bench.py: ${last || err.message}`,
      };
    }
    const peer = `PyTorch ${out.torch} · ${out.blas}`;
    // The library that does the work: OpenBLAS's own file rather than its libblas.so.3 shim.
    const lib =
      out.blasLibraries.find((p) => basename(p).startsWith('libopenblas')) ?? out.blasLibraries[0];
    const detail = `${out.threads} thread${out.threads === 1 ? '' : 's'}, ${lib ? basename(lib) : 'no BLAS library mapped'}`;
    const result = verdict(peer, w, out, detail);
    const decoding = torchDecoding(out.decoding);
    return result.status === 'ok' && decoding ? { ...result, decoding } : result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
