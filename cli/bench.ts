// `npm run bench [-- --backend cpu|webgpu|both --model tiny|small --batch N --quick --json
// --peers]`: the model's training and generation speed on the CPU twin and on WebGPU (Dawn), side
// by side; with --peers, the same training step in PyTorch and TF.js beside ours.
import type { Backend } from '../src/engine/backend.ts';
import { CpuBackend } from '../src/engine/cpu/cpu-backend.ts';
import { spawnNodeThread } from '../src/engine/cpu/threads/node-threads.ts';
import { startThreadPool, stopThreadPool } from '../src/engine/cpu/threads/thread-pool.ts';
import { WebGpuBackend } from '../src/engine/webgpu/webgpu-backend.ts';
import { benchmark, type BenchResult } from '../src/model/benchmark.ts';
import { describeBench } from '../src/model/benchmark-format.ts';
import { compareBenchmarks } from '../src/model/benchmark-rows.ts';
import { modelConfig } from '../src/model/config.ts';
import { profileModel, type Profile } from '../src/model/profile.ts';
import { Transformer } from '../src/model/transformer.ts';
import { parameterCount } from '../src/model/param-spec.ts';
import { VOCAB_SIZE } from '../src/tasks/tokenizer.ts';
import { BENCH_FLAGS, BENCH_SUMMARY, parseBenchArgs } from './bench-args.ts';
import { benchTable, peerTable, profileReport, threadsSpeedUp } from './bench-table.ts';
import { runCli } from './flags.ts';
import type { PeerResult } from './peers/result.ts';
import type { PeersReport } from './peers/run.ts';
import { DECODE_LOGIT_TOL } from './peers/torch.ts';

/** Dawn is loaded only when asked for, so a machine without it still gets the CPU figures. */
async function openWebGpu(): Promise<
  { ok: true; backend: Backend } | { ok: false; reason: string }
> {
  try {
    const { nodeGpu } = await import('../src/engine/webgpu/node-gpu.ts');
    return await WebGpuBackend.create(nodeGpu());
  } catch (e) {
    return { ok: false, reason: `the webgpu package (Dawn) did not load: ${(e as Error).message}` };
  }
}

await runCli(
  'npm run bench --',
  BENCH_SUMMARY,
  BENCH_FLAGS,
  async ({ backends, model, options, json, peers, profile, threads }) => {
    const config = modelConfig(model, VOCAB_SIZE);
    const results: BenchResult[] = [];
    const profiles: Profile[] = [];
    const unavailable: Record<string, string> = {};

    // The CPU twin on one thread, then on the pool: the same code, side by side in one run.
    const runs = backends.flatMap((kind) =>
      kind === 'cpu' && threads > 1
        ? [
            { kind, threads: 1 },
            { kind, threads },
          ]
        : [{ kind, threads: 1 }],
    );
    for (const { kind, threads: n } of runs) {
      let be: Backend;
      if (kind === 'cpu') {
        const pool = startThreadPool(n, spawnNodeThread);
        if (pool.reason && n > 1) {
          unavailable.threads = pool.reason;
          continue;
        }
        be = new CpuBackend();
      } else {
        const r = await openWebGpu();
        if (!r.ok) {
          unavailable.webgpu = r.reason;
          if (backends.length === 1) throw new Error(`WebGPU is unavailable: ${r.reason}`);
          console.error(`bench: WebGPU is unavailable (${r.reason}); CPU figures only`);
          continue;
        }
        be = r.backend;
      }
      try {
        const name = n > 1 ? `${be.name} ×${n} threads` : be.name;
        const result = await benchmark(be, config, options, (s) => console.error(`bench: ${s}…`));
        results.push({ ...result, backend: name });
        if (profile) {
          console.error(`bench: ${name}: profile…`);
          const m = Transformer.create(be, config, 1);
          profiles.push({ ...(await profileModel(m, options)), backend: name });
          m.free();
        }
      } catch (e) {
        throw new Error(`${be.name} failed: ${(e as Error).message}`, { cause: e });
      } finally {
        be.destroy();
        stopThreadPool();
      }
    }

    const rows = compareBenchmarks(results);
    let peerReport: PeersReport | undefined;
    if (peers) {
      // Loaded only when asked for: TF.js and its backends are big, and devDependencies.
      const { runPeers } = await import('./peers/run.ts');
      peerReport = await runPeers(
        config,
        options,
        backends.includes('webgpu'),
        (s) => console.error(`bench: ${s}…`),
        threads > 1 ? [1, threads] : [1],
      );
      // A peer whose loss (or cached decoding) is not ours means one of two models is wrong:
      // scripts must notice.
      const failed = (p: PeerResult) =>
        p.status === 'failed' || (p.status === 'ok' && p.decoding?.status === 'failed');
      if (peerReport.results.some(failed)) process.exitCode = 1;
    }
    if (!json) {
      console.log(
        `\nMENTOR Playground bench · model ${model} (${parameterCount(config).toLocaleString('en-US')} parameters)`,
      );
      console.log(`${describeBench(options)}\n`);
      console.log(benchTable(results, rows));
      if (unavailable.webgpu) console.log(`\nWebGPU unavailable: ${unavailable.webgpu}`);
      if (unavailable.threads) console.log(`\nNo thread pool: ${unavailable.threads}`);
      const speedUp = threadsSpeedUp(results);
      if (speedUp) console.log(`\n${speedUp}`);
      if (rows.some((r) => r.ratio !== null)) {
        console.log(
          "\nWebGPU/CPU is WebGPU's figure over the CPU's: below 1× is faster for ms, above 1× for tokens/s.",
        );
      }
      for (const p of profiles) console.log(`\n${profileReport(p)}`);
      if (peerReport) {
        console.log(
          `\nThe same training step in other frameworks (same weights, batch and AdamW)\n`,
        );
        console.log(peerTable(results, peerReport));
        console.log(
          "\n÷ ours is the peer's step time over ours: above 1× the peer is slower. A peer's loss " +
            "before and after one step must be our CPU twin's to 1e-5 relative, or its row fails.",
        );
        if (peerReport.results.some((p) => p.status === 'ok' && p.decoding))
          console.log(
            "A peer's decoding is ms per step of the whole batch; its cached logits must equal a " +
              `whole forward pass's to ${DECODE_LOGIT_TOL}, or its row fails.`,
          );
      }
      console.log('');
    }
    console.log(
      JSON.stringify({
        bench: 'mentor-playground',
        model,
        config,
        parameters: parameterCount(config),
        options,
        results,
        ratios: Object.fromEntries(
          rows.filter((r) => r.ratio !== null).map((r) => [r.key, r.ratio]),
        ),
        unavailable,
        peers: peerReport,
        profiles: profile ? profiles : undefined,
      }),
    );
  },
  parseBenchArgs,
);
// Dawn can keep the event loop alive after its device is destroyed.
process.exit(process.exitCode ?? 0);
