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

/** PyTorch and TF.js cpu and wasm; TF.js webgpu too when `webgpu`. A peer never throws. */
export async function runPeers(
  config: ModelConfig,
  opts: BenchOptions,
  webgpu: boolean,
  onStage: (stage: string) => void = () => {},
): Promise<PeersReport> {
  onStage(`peers: our CPU twin's loss on the training step's weights and batch`);
  const w = await peerWorkload(config, opts);
  const results: PeerResult[] = [];
  onStage('peers: PyTorch');
  results.push(await runTorch(w));
  const backends: TfBackendName[] = ['cpu', 'wasm', ...(webgpu ? (['webgpu'] as const) : [])];
  for (const b of backends) {
    onStage(`peers: TF.js ${b}`);
    results.push(await runTfjs(b, w));
  }
  return { loss: w.loss, lossAfterStep: w.lossAfterStep, decode: w.decode, results };
}
