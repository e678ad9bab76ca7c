import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../src/engine/cpu/cpu-backend.ts';
import { benchmark, type BenchResult } from '../src/model/benchmark.ts';
import { compareBenchmarks } from '../src/model/benchmark-rows.ts';
import { CHECK_CONFIG } from '../src/model/selfcheck/model-checks.ts';
import { benchTable, peerTable, profileTable } from './bench-table.ts';
import type { PeersReport } from './peers/run.ts';

const OPTIONS = { batch: 2, trainLength: 6, promptLengths: [3, 9], newTokens: 3, minSeconds: 0 };

describe('benchmark and its table', () => {
  // Shapes and bookkeeping only: speed belongs to `npm run bench`, never to assertions.
  it('measures a training step and generation with and without the cache at each length', async () => {
    const r = await benchmark(new CpuBackend(), CHECK_CONFIG, OPTIONS);
    expect(r.kind).toBe('cpu');
    expect(r.dispatchesPerTrainStep).toBeGreaterThan(10);
    expect(r.generation.map((g) => [g.promptLength, g.cache])).toEqual([
      [3, true],
      [3, false],
      [9, true],
      [9, false],
    ]);
    for (const g of r.generation) expect(g.msPerToken).toBeGreaterThan(0);
    expect(r.snapshotMs).toBeGreaterThan(0);
    // A batch of 2 is not a multiple of a group: one prompt, both sequences on it.
    expect(r.groupSampling).toMatchObject({ prompts: 1, answers: 2, promptLength: 9 });
    expect(r.groupSampling.sharedMs).toBeGreaterThan(0);
    expect(r.groupSampling.separateMs).toBeGreaterThan(0);
    const grouped = await benchmark(new CpuBackend(), CHECK_CONFIG, { ...OPTIONS, batch: 16 });
    expect(grouped.groupSampling).toMatchObject({ prompts: 2, answers: 8 });
  });

  it('rejects options the model cannot run', async () => {
    await expect(
      benchmark(new CpuBackend(), CHECK_CONFIG, { ...OPTIONS, promptLengths: [14] }),
    ).rejects.toThrow(/prompt length must be an integer in \[1, 13\], got 14/);
    await expect(
      benchmark(new CpuBackend(), CHECK_CONFIG, { ...OPTIONS, newTokens: 1 }),
    ).rejects.toThrow(/newTokens/);
  });

  it('sets backends side by side with WebGPU/CPU ratios and the growth per token', () => {
    const cpu: BenchResult = {
      backend: 'CPU',
      kind: 'cpu',
      parameters: 100,
      trainStepMs: 100,
      snapshotMs: 2,
      trainTokensPerSecond: 1000,
      dispatchesPerTrainStep: 129,
      generation: [3, 9].flatMap((p) =>
        [true, false].map((cache) => ({
          promptLength: p,
          cache,
          msPerToken: cache ? 2 : p,
          tokensPerSecond: 1,
          firstTokenMs: 1,
        })),
      ),
      groupSampling: { prompts: 2, answers: 8, promptLength: 9, sharedMs: 10, separateMs: 40 },
    };
    const gpu: BenchResult = { ...cpu, backend: 'WebGPU · test', kind: 'webgpu', trainStepMs: 25 };
    const rows = compareBenchmarks([cpu, gpu]);
    const byKey = new Map(rows.map((r) => [r.key, r]));
    expect(byKey.get('train.stepMs')?.ratio).toBe(0.25);
    expect(byKey.get('snapshot.share')?.values).toEqual([0.02, 0.08]);
    expect(byKey.get('generation.growth.cache')?.values).toEqual([1, 1]);
    expect(byKey.get('generation.growth.noCache')?.values).toEqual([3, 3]);
    expect(byKey.get('generation.growth.noCache')?.ratio).toBeNull();
    const table = benchTable([cpu, gpu], rows);
    expect(table).toMatch(/^figure +CPU +WebGPU · test +WebGPU\/CPU$/m);
    expect(table).toMatch(/^training step, ms +100 +25\.0 +0\.25×$/m);
    expect(table).toMatch(/^snapshot ÷ training step +0\.020× +0\.080× *$/m);
    expect(table).toMatch(/^ms\/token at prompt 9 ÷ at 3, no cache +3\.00× +3\.00× *$/m);
    expect(table).toMatch(
      /^GRPO sampling \(2 prompts × 8, prompt 9\), shared prefill, ms +10\.0 +10\.0 +1\.00×$/m,
    );
    expect(table).toMatch(/^GRPO sampling, separate ÷ shared +4\.00× +4\.00× *$/m);
    // One backend: no ratio column.
    expect(benchTable([cpu], compareBenchmarks([cpu]))).not.toContain('WebGPU/CPU');
  });

  it('sets the peers beside our training step, with ratios, failures and reasons', () => {
    const ours = (kind: 'cpu' | 'webgpu', trainStepMs: number): BenchResult => ({
      backend: kind === 'cpu' ? 'CPU' : 'WebGPU · test',
      kind,
      parameters: 100,
      trainStepMs,
      snapshotMs: 1,
      trainTokensPerSecond: 1000,
      dispatchesPerTrainStep: 129,
      generation: [],
      groupSampling: { prompts: 1, answers: 8, promptLength: 9, sharedMs: 1, separateMs: 2 },
    });
    const report: PeersReport = {
      loss: 3.884834,
      lossAfterStep: 3.796102,
      results: [
        {
          peer: 'PyTorch 1.13 · OpenBLAS 0.3.21 (openmp)',
          status: 'ok',
          stepMs: 50,
          tokensPerSecond: 2000,
          loss: 3.8848341,
          lossAfterStep: 3.796102,
          steps: 20,
          detail: '1 thread, libopenblasp-r0.3.21.so',
        },
        {
          peer: 'TF.js 4.22.0 · wasm',
          status: 'failed',
          reason: 'loss 3.9 is not ours',
          loss: 3.9,
        },
        { peer: 'TF.js 4.22.0 · webgpu', status: 'unavailable', reason: 'no WebGPU adapter' },
      ],
    };
    const table = peerTable([ours('cpu', 100), ours('webgpu', 400)], report);
    expect(table).toMatch(/^training step +ms +tokens\/s +loss +÷ our CPU +÷ our WebGPU +notes$/m);
    expect(table).toMatch(
      /^ours · CPU +100 +1,000 +3\.884834 +1\.00× +0\.25× +after one step 3\.796102$/m,
    );
    expect(table).toMatch(/^ours · WebGPU · test +400 +1,000 +4\.00× +1\.00×$/m);
    expect(table).toMatch(
      /^PyTorch 1\.13 · OpenBLAS 0\.3\.21 \(openmp\) +50\.0 +2,000 +3\.884834 +0\.50× +0\.13× +1 thread, libopenblasp-r0\.3\.21\.so; 20 timed steps$/m,
    );
    expect(table).toMatch(/^TF\.js 4\.22\.0 · wasm +3\.900000 +FAILED: loss 3\.9 is not ours$/m);
    expect(table).toMatch(/^TF\.js 4\.22\.0 · webgpu +unavailable: no WebGPU adapter$/m);
    // Without our WebGPU there is no WebGPU column.
    const cpuOnly = peerTable([ours('cpu', 100)], { ...report, results: report.results.slice(2) });
    expect(cpuOnly).not.toContain('÷ our WebGPU');
    expect(cpuOnly).toMatch(/^TF\.js 4\.22\.0 · webgpu +unavailable: no WebGPU adapter$/m);
    // A decoding run was asked for, but no peer decoded: no decoding table.
    const noDecoding = peerTable([ours('cpu', 100)], {
      ...report,
      decode: { B: 32, promptLength: 16, newTokens: 8 },
    });
    expect(noDecoding).not.toContain('decoding');
  });

  it("sets a peer's decoding beside ours at the workload's prompt length, or says why it failed", () => {
    const ours = (kind: 'cpu' | 'webgpu', msPerToken: number): BenchResult => ({
      backend: kind === 'cpu' ? 'CPU' : 'WebGPU · test',
      kind,
      parameters: 100,
      trainStepMs: 10,
      snapshotMs: 1,
      trainTokensPerSecond: 1000,
      dispatchesPerTrainStep: 100,
      generation: [
        { promptLength: 16, cache: false, msPerToken: 99, tokensPerSecond: 1, firstTokenMs: 1 },
        { promptLength: 16, cache: true, msPerToken, tokensPerSecond: 1, firstTokenMs: 1 },
        { promptLength: 96, cache: true, msPerToken: 77, tokensPerSecond: 1, firstTokenMs: 1 },
      ],
      groupSampling: { prompts: 4, answers: 8, promptLength: 96, sharedMs: 1, separateMs: 2 },
    });
    const torch = {
      peer: 'PyTorch 1.13',
      status: 'ok' as const,
      stepMs: 5,
      tokensPerSecond: 2000,
      loss: 3.884834,
      lossAfterStep: 3.796102,
      steps: 20,
      detail: '1 thread',
    };
    const report: PeersReport = {
      loss: 3.884834,
      lossAfterStep: 3.796102,
      decode: { B: 32, promptLength: 16, newTokens: 8 },
      results: [
        { ...torch, decoding: { status: 'ok', msPerToken: 0.5, steps: 700 } },
        {
          ...torch,
          peer: 'PyTorch broken',
          decoding: { status: 'failed', reason: 'logits differ' },
        },
      ],
    };
    const table = peerTable([ours('cpu', 0.25), ours('webgpu', 20)], report);
    expect(table).toMatch(
      /^decoding, KV cache \(batch 32, prompt 16\) +ms\/token +÷ our CPU +÷ our WebGPU +notes$/m,
    );
    expect(table).toMatch(/^ours · CPU +0\.25 +1\.00× +0\.013×$/m);
    expect(table).toMatch(/^ours · WebGPU · test +20\.0 +80\.0× +1\.00×$/m);
    expect(table).toMatch(/^PyTorch 1\.13 +0\.50 +2\.00× +0\.025× +700 timed steps$/m);
    expect(table).toMatch(/^PyTorch broken +FAILED: logits differ$/m);
  });
});

describe('the profile table', () => {
  const step = {
    phases: [
      { phase: 'forward', ms: 3 },
      { phase: 'backward', ms: 1 },
    ],
    kernels: [
      { kernel: 'matmul', calls: 4, ms: 2.5 },
      { kernel: 'gelu.forward', calls: 1, ms: 0.5 },
      { kernel: 'adamw', calls: 3, ms: 0.25 },
    ],
    launches: 8,
    reads: 2,
  };

  it('gives each phase and kernel its time and share, the rest summed', () => {
    const lines = profileTable('training step', step, 2).split('\n');
    expect(lines[2]).toMatch(/^forward\s+3\.00\s+75%$/);
    expect(lines[4]).toMatch(/^whole step\s+4\.00$/);
    expect(lines.find((l) => l.startsWith('matmul'))).toMatch(/^matmul\s+4\s+2\.50\s+77%$/);
    expect(lines.find((l) => l.startsWith('1 more'))).toMatch(/^1 more\s+3\s+0\.25\s+8%$/);
    expect(lines.at(-1)).toBe('8 kernel launches, 2 reads to the host per step');
  });

  it('says so where the backend cannot time kernels', () => {
    expect(profileTable('decoding step', { ...step, kernels: null })).toMatch(
      /cannot time single kernels$/,
    );
  });
});
