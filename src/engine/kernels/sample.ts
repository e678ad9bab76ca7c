import randomShader from '../../../shaders/random.wgsl?raw';
import sampleShader from '../../../shaders/sample.wgsl?raw';
import type { Backend, NumArray, Tensor } from '../backend.ts';
import { BackendError } from '../errors.ts';
import { requireElements, type Kernel } from '../kernel.ts';
import { uniformAt } from '../random.ts';
import { placeholder } from './placeholder.ts';

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
  /** Where this draw goes in the history buffers: element historyOffset + b. */
  historyOffset: number;
  /** Digit places to move on (each sequence's place: nextPlace(place, token, …)); null for none. */
  places: { firstDigit: number; maxPlace: number } | null;
}

/**
 * The place after `token`, given the place before it: one more (capped at maxPlace) for one of
 * the ten digit tokens from firstDigit, 0 for any other token (what the model calls digit places).
 */
export function nextPlace(
  previous: number,
  token: number,
  firstDigit: number,
  maxPlace: number,
): number {
  if (token < firstDigit || token >= firstDigit + 10) return 0;
  return Math.min(previous + 1, maxPlace);
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
  access: ['read', 'write', 'write', 'write', 'write', 'write'],
  uniforms: (p) => [
    ['u32', p.B],
    ['u32', p.vocab],
    ['u32', p.stride],
    ['u32', p.offset],
    ['f32', p.temperature],
    ['u32', p.topK],
    ['u32', p.seed >>> 0],
    ['u32', p.counter >>> 0],
    ['u32', p.historyOffset],
    ['u32', p.places?.firstDigit ?? 0],
    ['u32', p.places?.maxPlace ?? 0],
    ['u32', 0],
  ],
  workgroups: (p) => [Math.ceil(p.B / 64), 1, 1],
  cpu: (p, [logits, tokens, logprobs, histTokens, histLogprobs, place]) => {
    const emit = (b: number, token: number, lp: number) => {
      tokens[b] = token;
      logprobs[b] = lp;
      histTokens[p.historyOffset + b] = token;
      histLogprobs[p.historyOffset + b] = lp;
      if (p.places && p.places.maxPlace > 0)
        place[b] = nextPlace(place[b], token, p.places.firstDigit, p.places.maxPlace);
    };
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
        emit(b, best, -Math.log(z));
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
      emit(b, chosen, (logits[o + chosen] - m) / T - Math.log(z));
    }
  },
};

/**
 * Draw one token per sequence from its logit row: the tokens (u32, the next step's input) and
 * their log-probabilities, recorded too in the history buffers at historyOffset; with `place`
 * and p.places, each sequence's digit place moves on with its token.
 */
export function sampleTokens(
  be: Backend,
  t: {
    logits: Tensor;
    tokens: Tensor;
    logprobs: Tensor;
    history: { tokens: Tensor; logprobs: Tensor };
    place?: Tensor;
  },
  p: SampleParams,
): void {
  if (t.tokens.dtype !== 'u32' || t.history.tokens.dtype !== 'u32')
    throw new BackendError('sample: tokens must be u32');
  if (p.temperature < 0 || !Number.isFinite(p.temperature)) {
    throw new BackendError(`sample: temperature must be ≥ 0, got ${p.temperature}`);
  }
  if (!Number.isInteger(p.topK) || p.topK < 0)
    throw new BackendError(`sample: top-k must be an integer ≥ 0`);
  if (p.places && !t.place) throw new BackendError('sample: moving places needs their tensor');
  const lastRow = p.offset + (p.B - 1) * p.stride + p.vocab;
  requireElements('sample', lastRow, t.logits);
  requireElements('sample', p.B, t.tokens, t.logprobs);
  requireElements('sample', p.historyOffset + p.B, t.history.tokens, t.history.logprobs);
  if (t.place) requireElements('sample', p.B, t.place);
  be.run(sampleKernel, p, [
    t.logits,
    t.tokens,
    t.logprobs,
    t.history.tokens,
    t.history.logprobs,
    t.place ?? placeholder(be),
  ]);
}
