import { lossMismatch, type PeerWorkload } from './workload.ts';

/** One peer's run of the bench's training step. */
export type PeerResult =
  | {
      /** Which framework and backend, e.g. "TF.js 4.22.0 · wasm". */
      peer: string;
      status: 'ok';
      stepMs: number;
      tokensPerSecond: number;
      /** Loss of the first step, checked against our CPU twin's. */
      loss: number;
      /** Loss of the second step (after one update), checked too. */
      lossAfterStep: number;
      /** Timed steps behind stepMs. */
      steps: number;
      /** What it ran on: BLAS, threads, adapter. */
      detail: string;
      /** Its decoding with a KV cache (peers that decode), or why that row failed. */
      decoding?: PeerDecoding;
    }
  | { peer: string; status: 'failed'; reason: string; loss?: number; detail?: string }
  | { peer: string; status: 'unavailable'; reason: string };

/** A peer's decoding run (PeerWorkload.decode): ms per step for the whole batch. */
export type PeerDecoding =
  { status: 'ok'; msPerToken: number; steps: number } | { status: 'failed'; reason: string };

export interface PeerRun {
  loss: number;
  lossAfterStep: number;
  stepMs: number;
  steps: number;
}

/**
 * Time `step` as benchTraining times ours: one untimed warm-up step (compilation, allocation),
 * then steps until minSeconds have passed, at least one. `step` resolves to its loss once the
 * device has finished it.
 */
export async function timeSteps(minSeconds: number, step: () => Promise<number>): Promise<PeerRun> {
  const loss = await step();
  let lossAfterStep = NaN;
  let steps = 0;
  const t0 = performance.now();
  do {
    const l = await step();
    if (steps === 0) lossAfterStep = l;
    steps++;
  } while (performance.now() - t0 < minSeconds * 1000);
  return { loss, lossAfterStep, stepMs: (performance.now() - t0) / steps, steps };
}

/** A peer's row: its figures when its losses are ours, else a failure that says how they differ. */
export function verdict(peer: string, w: PeerWorkload, run: PeerRun, detail: string): PeerResult {
  const mismatch = lossMismatch(w, run.loss, run.lossAfterStep);
  if (mismatch) return { peer, status: 'failed', reason: mismatch, loss: run.loss, detail };
  return {
    peer,
    status: 'ok',
    stepMs: run.stepMs,
    tokensPerSecond: (w.batch.B * w.batch.T * 1000) / run.stepMs,
    loss: run.loss,
    lossAfterStep: run.lossAfterStep,
    steps: run.steps,
    detail,
  };
}
