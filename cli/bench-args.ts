import { parseArgs } from 'node:util';
import type { BackendKind } from '../src/engine/backend.ts';
import { DEFAULT_BENCH, QUICK_BENCH, type BenchOptions } from '../src/model/benchmark.ts';
import { PRESETS, type PresetName } from '../src/model/config.ts';

export interface BenchArgs {
  backends: BackendKind[];
  preset: PresetName;
  options: BenchOptions;
  json: boolean;
}

/** What the command line asks for: a run, the help text, or a usage error to report. */
export type BenchCommand =
  { kind: 'run'; args: BenchArgs } | { kind: 'help' } | { kind: 'error'; message: string };

export const BENCH_USAGE = `usage: npm run bench [-- options]

Times one training step (forward, backward, AdamW) and batched generation with and without the
KV cache at two prompt lengths, on the CPU twin and on WebGPU (Dawn) side by side.

  --backend cpu|webgpu|both  which backends to run (default both; without WebGPU, CPU only)
  --preset tiny|small        model architecture (default tiny)
  --batch N                  sequences per training step and per generation batch
                             (default ${DEFAULT_BENCH.batch}; 128 is a full GRPO batch of 16 prompts × 8)
  --quick                    a seconds-long run: batch ${QUICK_BENCH.batch}, prompts of ${QUICK_BENCH.promptLengths.join(' and ')} tokens,
                             ${QUICK_BENCH.newTokens} new tokens (what the page runs)
  --json                     print only the JSON line, no table
  --help                     this text

Prints a table (figures per backend and WebGPU/CPU ratios), then one line of JSON.`;

const BACKENDS: Record<string, BackendKind[]> = {
  cpu: ['cpu'],
  webgpu: ['webgpu'],
  both: ['cpu', 'webgpu'],
};

export function parseBenchArgs(argv: readonly string[]): BenchCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        backend: { type: 'string', default: 'both' },
        preset: { type: 'string', default: 'tiny' },
        batch: { type: 'string' },
        quick: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (e) {
    return { kind: 'error', message: (e as Error).message };
  }
  if (values.help) return { kind: 'help' };
  const backends = BACKENDS[values.backend];
  if (!backends) {
    return {
      kind: 'error',
      message: `--backend must be cpu, webgpu or both, got "${values.backend}"`,
    };
  }
  if (!Object.hasOwn(PRESETS, values.preset)) {
    return {
      kind: 'error',
      message: `--preset must be ${Object.keys(PRESETS).join(' or ')}, got "${values.preset}"`,
    };
  }
  const options = { ...(values.quick ? QUICK_BENCH : DEFAULT_BENCH) };
  if (values.batch !== undefined) {
    const n = Number(values.batch);
    if (!/^\d+$/.test(values.batch) || n < 1 || n > 4096) {
      return {
        kind: 'error',
        message: `--batch must be an integer in [1, 4096], got "${values.batch}"`,
      };
    }
    options.batch = n;
  }
  return {
    kind: 'run',
    args: { backends, preset: values.preset as PresetName, options, json: values.json },
  };
}
