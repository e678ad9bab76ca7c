// `npm run bench -- --peers`: the bench's training step on other frameworks, on the same weights
// and batch, each checked against our CPU twin's loss.
import type { BenchOptions } from '../../src/model/benchmark.ts';
import type { ModelConfig } from '../../src/model/config.ts';
import type { PeerResult } from './result.ts';
import { runTfjs, type TfBackendName } from './tfjs.ts';
import { runTorch } from './torch.ts';
import { peerWorkload, type PeerWorkload } from './workload.ts';

export interface PeersReport {
  /** Our CPU twin's loss on the workload, before and after one AdamW step. */
  loss: number;
  lossAfterStep: number;
  /** The decoding run peers that decode were timed on (the workload's). */
  decode?: PeerWorkload['decode'];
  results: PeerResult[];
}

/** PyTorch's runs at each thread count: its figure moves up to 2× from run to run here. */
export const TORCH_REPEATS = 3;

/** The run of median step time (its decoding with it), or the first run that did not succeed. */
export function medianRun(runs: readonly PeerResult[], note: string): PeerResult {
  const ok = runs.flatMap((r) => (r.status === 'ok' ? [r] : []));
  if (ok.length < runs.length) return runs.find((r) => r.status !== 'ok')!;
  const sorted = [...ok].sort((a, b) => a.stepMs - b.stepMs);
  const median = sorted[(sorted.length - 1) >> 1];
  return { ...median, detail: `${median.detail}; ${note}` };
}

/**
 * PyTorch on each of `torchThreads` thread counts (the median of TORCH_REPEATS runs each), then
 * TF.js cpu and wasm; TF.js webgpu too when `webgpu`. A peer never throws.
 */
export async function runPeers(
  config: ModelConfig,
  opts: BenchOptions,
  webgpu: boolean,
  onStage: (stage: string) => void = () => {},
  torchThreads: readonly number[] = [1],
): Promise<PeersReport> {
  onStage(`peers: our CPU twin's loss on the training step's weights and batch`);
  const w = await peerWorkload(config, opts);
  const results: PeerResult[] = [];
  for (const threads of torchThreads) {
    const runs: PeerResult[] = [];
    for (let i = 0; i < TORCH_REPEATS; i++) {
      onStage(`peers: PyTorch, ${threads} thread${threads === 1 ? '' : 's'}, run ${i + 1}`);
      const r = await runTorch(w, undefined, threads);
      runs.push(r);
      if (r.status !== 'ok') break;
    }
    const median = medianRun(runs, `median of ${runs.length} runs`);
    results.push({ ...median, peer: `${median.peer} ×${threads}` });
  }
  const backends: TfBackendName[] = ['cpu', 'wasm', ...(webgpu ? (['webgpu'] as const) : [])];
  for (const b of backends) {
    onStage(`peers: TF.js ${b}`);
    results.push(await runTfjs(b, w));
  }
  return { loss: w.loss, lossAfterStep: w.lossAfterStep, decode: w.decode, results };
}
