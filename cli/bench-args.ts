import type { BackendKind } from '../src/engine/backend.ts';
import { DEFAULT_BENCH, QUICK_BENCH, type BenchOptions } from '../src/model/benchmark.ts';
import type { ModelSize } from '../src/model/config.ts';
import { MODEL_FLAG } from './common-flags.ts';
import { parseFlags, type Flag } from './flags.ts';

export interface BenchArgs {
  backends: BackendKind[];
  model: ModelSize;
  options: BenchOptions;
  json: boolean;
  /** Also run the training step on PyTorch and TF.js, and PyTorch's decoding (cli/peers/). */
  peers: boolean;
  /** Also split a training step and a decoding step into phases and kernels. */
  profile: boolean;
  /** The CPU twin is also timed on a pool of this many threads, beside one thread (1: not). */
  threads: number;
}

const BACKENDS: Record<string, BackendKind[]> = {
  cpu: ['cpu'],
  webgpu: ['webgpu'],
  both: ['cpu', 'webgpu'],
};

export const BENCH_SUMMARY = `Times one training step (forward, backward, AdamW) and batched generation with and without the
KV cache at two prompt lengths, on the CPU twin and on WebGPU (Dawn) side by side.
Prints a table (figures per backend and WebGPU/CPU ratios), then one line of JSON.
With --peers, also the same training step in PyTorch and TF.js (cpu, wasm, and webgpu unless
--backend cpu), on the same weights and batch, each checked against our loss, and PyTorch's
decoding with a KV cache beside ours.
With --profile, also where a training step's and a decoding step's time goes: per phase and per
kernel (CPU wall time; WebGPU timestamp queries), with kernel launches and reads to the host.`;

export const BENCH_FLAGS: Flag[] = [
  {
    name: 'backend',
    kind: 'choice',
    choices: Object.keys(BACKENDS),
    default: 'both',
    help: 'which backends to run (without WebGPU, CPU only)',
  },
  MODEL_FLAG,
  {
    name: 'batch',
    kind: 'int',
    min: 1,
    max: 4096,
    help: `sequences per training step and per generation batch (default ${DEFAULT_BENCH.batch}, with --quick ${QUICK_BENCH.batch}; 128 is a full GRPO batch of 16 prompts × 8)`,
  },
  {
    name: 'quick',
    kind: 'bool',
    default: false,
    help: `a seconds-long run: batch ${QUICK_BENCH.batch}, prompts of ${QUICK_BENCH.promptLengths.join(' and ')} tokens, ${QUICK_BENCH.newTokens} new tokens (what the page runs)`,
  },
  { name: 'json', kind: 'bool', default: false, help: 'print only the JSON line, no table' },
  {
    name: 'peers',
    kind: 'bool',
    default: false,
    help: "time the training step in PyTorch (where /usr/bin/python3 has torch) and TF.js, beside ours; a peer's loss must be ours to 1e-5",
  },
  {
    name: 'threads',
    kind: 'int',
    min: 1,
    max: 64,
    default: 2,
    help: 'the CPU twin also on a pool of this many threads, in a column beside one thread (1: one thread only)',
  },
  {
    name: 'profile',
    kind: 'bool',
    default: false,
    help: 'time per phase and per kernel of a training step and a decoding step, launches and reads to the host',
  },
];

/** The run the command line asks for; bad flags or values throw UsageError. */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const f = parseFlags(argv, BENCH_FLAGS);
  const options = { ...(f.quick ? QUICK_BENCH : DEFAULT_BENCH) };
  if (f.batch !== undefined) options.batch = Number(f.batch);
  return {
    backends: BACKENDS[String(f.backend)],
    model: f.model as ModelSize,
    options,
    json: f.json === true,
    peers: f.peers === true,
    profile: f.profile === true,
    threads: Number(f.threads),
  };
}
