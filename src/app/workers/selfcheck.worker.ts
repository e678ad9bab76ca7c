import * as Comlink from 'comlink';
import type { Backend } from '../../engine/backend.ts';
import { CpuBackend } from '../../engine/cpu/cpu-backend.ts';
import { createBackend, type BackendPreference } from '../../engine/create-backend.ts';
import type { CheckResult } from '../../engine/selfcheck/check.ts';
import { KERNEL_CHECKS } from '../../engine/selfcheck/kernel-checks.ts';
import { runChecks } from '../../engine/selfcheck/run-checks.ts';
import { QUICK_BENCH, benchmark, type BenchResult } from '../../model/benchmark.ts';
import { describeBench, formatRatio, formatValue } from '../../model/benchmark-format.ts';
import { compareBenchmarks } from '../../model/benchmark-rows.ts';
import { modelConfig } from '../../model/config.ts';
import { parameterCount } from '../../model/param-spec.ts';
import { MODEL_CHECKS } from '../../model/selfcheck/model-checks.ts';
import { VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { JobQueue } from '../job-queue.ts';

const CHECKS = [...KERNEL_CHECKS, ...MODEL_CHECKS];

export interface BackendInfo {
  kind: Backend['kind'];
  name: string;
  fallbackReason: string | null;
  /** Why this backend, where it was chosen by timing a step on each (the lanes); else absent. */
  chosenBecause?: string | null;
  /** The CPU was chosen on purpose rather than fallen back to (the lanes on a software adapter). */
  fallbackChosen: boolean;
  /** The CPU twin's threads: "2 threads", or "one thread (why)"; absent where it says nothing. */
  threads?: string | null;
}

/** The benchmark as text, formatted here so the page bundle needs none of the model code. */
export interface BenchTable {
  /** What was measured: preset, batch, lengths. */
  description: string;
  /** One column per backend, in run order (the CPU twin first). */
  backends: string[];
  rows: { key: string; label: string; cells: string[]; ratio: string }[];
  /** Whether the rows carry WebGPU/CPU ratios (both backends ran). */
  hasRatios: boolean;
}

let backend: Backend | null = null;
/** One job at a time: the self-check and the benchmark share the backend. */
const jobs = new JobQueue();

function ready(): Backend {
  if (!backend) throw new Error('self-check worker: init() first');
  return backend;
}

async function runBenchmark(onStage: (stage: string) => void): Promise<BenchTable> {
  const page = ready();
  const config = modelConfig('tiny', VOCAB_SIZE);
  const results: BenchResult[] = [];
  // Where the page runs WebGPU, its CPU twin runs too, for the ratios.
  if (page.kind === 'webgpu') {
    const cpu = new CpuBackend();
    try {
      results.push(await benchmark(cpu, config, QUICK_BENCH, onStage));
    } finally {
      cpu.destroy();
    }
  }
  results.push(await benchmark(page, config, QUICK_BENCH, onStage));
  const rows = compareBenchmarks(results);
  return {
    description:
      `tiny model (${parameterCount(config).toLocaleString('en-US')} parameters), quick ` +
      `configuration: ${describeBench(QUICK_BENCH)}`,
    backends: results.map((r) => r.backend),
    rows: rows.map((r) => ({
      key: r.key,
      label: r.label,
      cells: r.values.map((v) => formatValue(r, v)),
      ratio: formatRatio(r.ratio),
    })),
    hasRatios: rows.some((r) => r.ratio !== null),
  };
}

/** The kernel self-check and the benchmark, run off the main thread on the worker's backend. */
const api = {
  async init(preference: BackendPreference): Promise<BackendInfo> {
    return jobs.run(async () => {
      backend?.destroy();
      const choice = await createBackend(preference, navigator.gpu);
      backend = choice.backend;
      return {
        kind: backend.kind,
        name: backend.name,
        fallbackReason: choice.fallbackReason,
        fallbackChosen: false,
      };
    });
  },
  checkNames(): string[] {
    return CHECKS.map((c) => c.name);
  },
  run(onResult: (r: CheckResult) => void): Promise<CheckResult[]> {
    return jobs.run(() => runChecks(ready(), CHECKS, onResult));
  },
  benchmark(onStage: (stage: string) => void): Promise<BenchTable> {
    return jobs.run(() => runBenchmark(onStage));
  },
};

export type SelfCheckApi = typeof api;

Comlink.expose(api);
