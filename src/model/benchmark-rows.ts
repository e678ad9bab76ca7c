// The benchmark's results side by side, as the rows of a table. `npm run bench` and the page's
// benchmark (its self-check worker) show the same rows, so they sit in the layer both build on.
import type { BenchResult, GenerationFigure } from './benchmark.ts';

/** One line of the comparison table; `values` follow the results' order. */
export interface BenchRow {
  /** Stable machine-readable name, e.g. "generation.p96.cache.msPerToken". */
  key: string;
  label: string;
  values: number[];
  /** The values are themselves ratios (shown as "1.10×"). */
  isRatio: boolean;
  /** WebGPU's value over the CPU's where both ran; null otherwise or where it means nothing. */
  ratio: number | null;
}

function figure(r: BenchResult, promptLength: number, cache: boolean): GenerationFigure {
  const g = r.generation.find((x) => x.promptLength === promptLength && x.cache === cache);
  if (!g) throw new Error(`no generation figure for prompt ${promptLength}, cache ${cache}`);
  return g;
}

/**
 * The figures of one or more runs side by side (same options), with WebGPU/CPU ratios, and per
 * backend how the cost per token grows from the shortest to the longest prompt: flat with the
 * KV cache, growing without it.
 */
export function compareBenchmarks(results: readonly BenchResult[]): BenchRow[] {
  const cpu = results.findIndex((r) => r.kind === 'cpu');
  const gpu = results.findIndex((r) => r.kind === 'webgpu');
  const row = (key: string, label: string, pick: (r: BenchResult) => number, isRatio = false) => {
    const values = results.map(pick);
    const both = !isRatio && cpu >= 0 && gpu >= 0;
    return { key, label, values, isRatio, ratio: both ? values[gpu] / values[cpu] : null };
  };
  const rows: BenchRow[] = [
    row('train.stepMs', 'training step, ms', (r) => r.trainStepMs),
    row('train.tokensPerSecond', 'training, tokens/s', (r) => r.trainTokensPerSecond),
    row('train.dispatches', 'dispatches per training step', (r) => r.dispatchesPerTrainStep),
    row('snapshot.ms', 'snapshot (weights + AdamW moments, one read), ms', (r) => r.snapshotMs),
    row('snapshot.share', 'snapshot ÷ training step', (r) => r.snapshotMs / r.trainStepMs, true),
  ];
  const lengths = [...new Set(results[0]?.generation.map((g) => g.promptLength) ?? [])];
  for (const p of lengths) {
    for (const cache of [true, false]) {
      const name = `generation.p${p}.${cache ? 'cache' : 'noCache'}`;
      const what = `generation, prompt ${p}, ${cache ? 'KV cache' : 'no cache'}`;
      rows.push(
        row(`${name}.msPerToken`, `${what}, ms/token`, (r) => figure(r, p, cache).msPerToken),
        row(
          `${name}.tokensPerSecond`,
          `${what}, tokens/s`,
          (r) => figure(r, p, cache).tokensPerSecond,
        ),
      );
    }
  }
  const group = results[0]?.groupSampling;
  if (group) {
    const what = `GRPO sampling (${group.prompts} prompts × ${group.answers}, prompt ${group.promptLength})`;
    rows.push(
      row('sampling.shared.ms', `${what}, shared prefill, ms`, (r) => r.groupSampling.sharedMs),
      row('sampling.separate.ms', `${what}, separate, ms`, (r) => r.groupSampling.separateMs),
      row(
        'sampling.shareGain',
        'GRPO sampling, separate ÷ shared',
        (r) => r.groupSampling.separateMs / r.groupSampling.sharedMs,
        true,
      ),
    );
  }
  if (lengths.length > 1) {
    const [short, long] = [Math.min(...lengths), Math.max(...lengths)];
    for (const cache of [true, false]) {
      rows.push(
        row(
          `generation.growth.${cache ? 'cache' : 'noCache'}`,
          `ms/token at prompt ${long} ÷ at ${short}, ${cache ? 'KV cache' : 'no cache'}`,
          (r) => figure(r, long, cache).msPerToken / figure(r, short, cache).msPerToken,
          true,
        ),
      );
    }
  }
  return rows;
}
