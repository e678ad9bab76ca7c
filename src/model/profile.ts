// Where a training step's and a decoding step's time goes: per phase and per kernel, with the
// launches and host reads each makes (`npm run bench -- --profile`).
import type { Backend } from '../engine/backend.ts';
import type { KernelTime } from '../engine/profile.ts';
import { randomSeqs, trainingWorkload, type BenchOptions } from './benchmark.ts';
import { READ_EVERY, generate, type DecodePhase } from './generate.ts';
import { AdamW } from './optimizer.ts';
import type { Transformer } from './transformer.ts';

export interface PhaseTime {
  phase: string;
  ms: number;
}

export interface StepProfile {
  /** Wall time of each phase, the device waited for at its end (so the phases add up). */
  phases: PhaseTime[];
  /** Time per kernel; null where the backend cannot time launches (no timestamp queries). */
  kernels: KernelTime[] | null;
  launches: number;
  reads: number;
}

export interface Profile {
  backend: string;
  training: StepProfile;
  decoding: StepProfile;
}

/** Phase times, taken by waiting for the device as each phase ends. */
class Phases {
  private readonly times = new Map<string, number>();
  private current: { phase: string; t0: number } | null = null;

  constructor(private readonly be: Backend) {}

  async enter(phase: string | null): Promise<void> {
    await this.be.flush();
    const now = performance.now();
    if (this.current) {
      const { phase: was, t0 } = this.current;
      this.times.set(was, (this.times.get(was) ?? 0) + now - t0);
    }
    this.current = phase === null ? null : { phase, t0: now };
  }

  list(steps: number): PhaseTime[] {
    return [...this.times].map(([phase, ms]) => ({ phase, ms: ms / steps }));
  }
}

/** Mean over `steps` steps of `run` (after a warm-up), profiled. */
async function profiled(
  be: Backend,
  steps: number,
  run: (phases: Phases) => Promise<void>,
): Promise<StepProfile> {
  await run(new Phases(be));
  const phases = new Phases(be);
  const [launches, reads] = [be.dispatchCount, be.readCount];
  be.startProfiling();
  for (let s = 0; s < steps; s++) await run(phases);
  const kernels = await be.stopProfiling();
  return {
    phases: phases.list(steps),
    kernels: kernels?.map((k) => ({ ...k, calls: k.calls / steps, ms: k.ms / steps })) ?? null,
    launches: (be.dispatchCount - launches) / steps,
    reads: (be.readCount - reads) / steps,
  };
}

/** A training step (forward, backward, AdamW) of the bench workload, phase by phase. */
export async function profileTraining(
  model: Transformer,
  opts: BenchOptions,
  steps = 5,
): Promise<StepProfile> {
  const opt = new AdamW(model);
  try {
    const { batch, weights } = trainingWorkload(opts, model.config.vocabSize);
    return await profiled(model.be, steps, async (phases) => {
      await phases.enter('forward');
      model.forwardTrain(batch);
      await phases.enter('backward');
      model.backward(weights);
      await phases.enter('optimizer (clip + AdamW)');
      opt.update();
      await phases.enter(null);
    });
  } finally {
    opt.free();
  }
}

/**
 * A decoding step with the KV cache after a prompt of the first bench length: the model's
 * forward for one new row per sequence, the draw, and the read of the drawn tokens, which comes
 * once every READ_EVERY steps. The mean over the READ_EVERY steps after the prefill, of
 * generations of 2·READ_EVERY + 1 tokens (so none of them is the last one, which always reads).
 */
export async function profileDecoding(
  model: Transformer,
  opts: BenchOptions,
  steps = 5,
): Promise<StepProfile> {
  const be = model.be;
  const vocab = model.config.vocabSize;
  const prompts = randomSeqs(opts.batch, opts.promptLengths[0], vocab, 20);
  const names: Record<DecodePhase, string | null> = {
    forward: 'forward (one row per sequence)',
    sample: 'sample',
    read: 'read tokens to the host',
    done: null,
  };
  const phases = new Phases(be);
  const kernels = new Map<string, KernelTime>();
  let timed = true;
  let [launches, reads] = [0, 0];
  const [first, end] = [1, 1 + READ_EVERY];
  for (let run = 0; run <= steps; run++) {
    const counted = run > 0; // the first run warms up
    await generate(model, prompts, {
      maxNewTokens: 2 * READ_EVERY + 1,
      temperature: 1,
      seed: 3,
      counter: 0,
      eos: vocab,
      pad: 0,
      onPhase: async (phase, s) => {
        if (!counted || s < first || s > end) return;
        if (phase === 'forward' && s === first) {
          await be.flush();
          launches -= be.dispatchCount;
          reads -= be.readCount;
          be.startProfiling();
        }
        if (s === end) {
          // Step `end` starts: the measured steps are over.
          if (phase !== 'forward') return;
          await phases.enter(null);
          launches += be.dispatchCount;
          reads += be.readCount;
          const times = await be.stopProfiling();
          if (!times) timed = false;
          for (const k of times ?? []) {
            const sum = kernels.get(k.kernel) ?? { kernel: k.kernel, calls: 0, ms: 0 };
            kernels.set(k.kernel, { ...sum, calls: sum.calls + k.calls, ms: sum.ms + k.ms });
          }
          return;
        }
        await phases.enter(names[phase]);
      },
    });
  }
  const n = steps * READ_EVERY;
  return {
    phases: phases.list(n),
    kernels: timed
      ? [...kernels.values()]
          .map((k) => ({ ...k, calls: k.calls / n, ms: k.ms / n }))
          .sort((a, b) => b.ms - a.ms)
      : null,
    launches: launches / n,
    reads: reads / n,
  };
}

/** Both profiles on one backend. */
export async function profileModel(
  model: Transformer,
  opts: BenchOptions,
  steps = 5,
): Promise<Profile> {
  return {
    backend: model.be.name,
    training: await profileTraining(model, opts, steps),
    decoding: await profileDecoding(model, opts, steps),
  };
}
