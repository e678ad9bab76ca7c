import randomShader from '../../../shaders/random.wgsl?raw';
import sampleShader from '../../../shaders/sample.wgsl?raw';
import type { Backend, NumArray, Tensor } from '../backend.ts';
import { BackendError } from '../errors.ts';
import { requireElements, type Kernel } from '../kernel.ts';
import { uniformAt } from '../random.ts';

export interface SampleParams {
  B: number;
  vocab: number;
  /** Elements between consecutive sequences' logit rows, and the first row's offset. */
  stride: number;
  offset: number;
  /** 0 = greedy. */
  temperature: number;
  /** 0 = no top-k filter. */
  topK: number;
  seed: number;
  /** Counter of the first sequence's draw; sequence b uses counter + b. */
  counter: number;
}

function kept(logits: NumArray, o: number, v: number, p: SampleParams): boolean {
  if (p.topK === 0 || p.topK >= p.vocab) return true;
  let rank = 0;
  const lv = logits[o + v];
  for (let u = 0; u < p.vocab; u++) {
    const lu = logits[o + u];
    if (lu > lv || (lu === lv && u < v)) rank++;
  }
  return rank < p.topK;
}

export const sampleKernel: Kernel<SampleParams> = {
  name: 'sample',
  shader: `${randomShader}\n${sampleShader}`,
  entry: 'sample',
  access: ['read', 'write', 'write'],
  uniforms: (p) => [
    ['u32', p.B],
    ['u32', p.vocab],
    ['u32', p.stride],
    ['u32', p.offset],
    ['f32', p.temperature],
    ['u32', p.topK],
    ['u32', p.seed >>> 0],
    ['u32', p.counter >>> 0],
  ],
  workgroups: (p) => [Math.ceil(p.B / 64), 1, 1],
  cpu: (p, [logits, tokens, logprobs]) => {
    const T = Math.fround(p.temperature);
    for (let b = 0; b < p.B; b++) {
      const o = p.offset + b * p.stride;
      let m = -Infinity;
      let best = 0;
      for (let v = 0; v < p.vocab; v++) {
        if (logits[o + v] > m) {
          m = logits[o + v];
          best = v;
        }
      }
      if (T <= 0) {
        let z = 0;
        for (let v = 0; v < p.vocab; v++) z += Math.exp(logits[o + v] - m);
        tokens[b] = best;
        logprobs[b] = -Math.log(z);
        continue;
      }
      let z = 0;
      for (let v = 0; v < p.vocab; v++)
        if (kept(logits, o, v, p)) z += Math.exp((logits[o + v] - m) / T);
      const target = uniformAt(p.seed, (p.counter + b) >>> 0) * z;
      let acc = 0;
      let chosen = best;
      for (let v = 0; v < p.vocab; v++) {
        if (!kept(logits, o, v, p)) continue;
        acc += Math.exp((logits[o + v] - m) / T);
        chosen = v;
        if (acc > target) break;
      }
      tokens[b] = chosen;
      logprobs[b] = (logits[o + chosen] - m) / T - Math.log(z);
    }
  },
};

/** Draw one token per sequence from its logit row; tokens (u32) and their log-probabilities. */
export function sampleTokens(
  be: Backend,
  t: { logits: Tensor; tokens: Tensor; logprobs: Tensor },
  p: SampleParams,
): void {
  if (t.tokens.dtype !== 'u32') throw new BackendError('sample: tokens must be u32');
  if (p.temperature < 0 || !Number.isFinite(p.temperature)) {
    throw new BackendError(`sample: temperature must be ≥ 0, got ${p.temperature}`);
  }
  if (!Number.isInteger(p.topK) || p.topK < 0)
    throw new BackendError(`sample: top-k must be an integer ≥ 0`);
  const lastRow = p.offset + (p.B - 1) * p.stride + p.vocab;
  requireElements('sample', lastRow, t.logits);
  requireElements('sample', p.B, t.tokens, t.logprobs);
  be.run(sampleKernel, p, [t.logits, t.tokens, t.logprobs]);
}
