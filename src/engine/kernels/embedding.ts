import shader from '../../../shaders/embedding.wgsl?raw';
import type { Backend, Tensor } from '../backend.ts';
import { BackendError } from '../errors.ts';
import { grid, requireElements, type Kernel, type UniformField } from '../kernel.ts';

interface EmbeddingParams {
  /** Number of tokens. */
  n: number;
  dim: number;
  vocab: number;
  accumulate: boolean;
}

const uniforms = (p: EmbeddingParams): UniformField[] => [
  ['u32', p.n],
  ['u32', p.dim],
  ['u32', p.vocab],
  ['u32', 0],
];

export const embeddingForwardKernel: Kernel<EmbeddingParams> = {
  name: 'embedding.forward',
  shader,
  entry: 'embedding_forward',
  access: ['read', 'read', 'write'],
  uniforms,
  workgroups: (p) => grid((p.n * p.dim) / 256),
  cpu: ({ n, dim, vocab }, [tokens, table, out]) => {
    for (let t = 0; t < n; t++) {
      const row = Math.min(tokens[t], vocab - 1) * dim;
      out.set(table.subarray(row, row + dim), t * dim);
    }
  },
};

export const embeddingBackwardKernel: Kernel<EmbeddingParams> = {
  name: 'embedding.backward',
  shader,
  entry: 'embedding_backward',
  access: ['read', 'read', 'write'],
  uniforms,
  constants: (p) => ({ ACCUMULATE: Number(p.accumulate) }),
  workgroups: (p) => grid((p.vocab * p.dim) / 256),
  cpu: ({ n, dim, vocab, accumulate }, [tokens, dout, dtable]) => {
    if (!accumulate) dtable.fill(0, 0, vocab * dim);
    for (let t = 0; t < n; t++) {
      const v = tokens[t];
      if (v >= vocab) continue;
      const row = v * dim;
      const from = t * dim;
      for (let c = 0; c < dim; c++) dtable[row + c] += dout[from + c];
    }
  },
};

function check(tokens: Tensor, n: number, ...pairs: [Tensor, number][]): void {
  if (tokens.dtype !== 'u32')
    throw new BackendError(`embedding: tokens "${tokens.label}" must be u32`);
  for (const [t, need] of [[tokens, n] as [Tensor, number], ...pairs])
    requireElements('embedding', need, t);
}

/** out[t] = table[tokens[t]] for t < n. Out-of-range ids read the last row rather than memory. */
export function embeddingForward(
  be: Backend,
  out: Tensor,
  tokens: Tensor,
  table: Tensor,
  s: { n: number; dim: number; vocab: number },
): void {
  check(tokens, s.n, [table, s.vocab * s.dim], [out, s.n * s.dim]);
  be.run(embeddingForwardKernel, { ...s, accumulate: false }, [tokens, table, out]);
}

/** dtable[v] (+)= Σ over tokens t with id v of dout[t]. */
export function embeddingBackward(
  be: Backend,
  dtable: Tensor,
  tokens: Tensor,
  dout: Tensor,
  s: { n: number; dim: number; vocab: number; accumulate?: boolean },
): void {
  check(tokens, s.n, [dout, s.n * s.dim], [dtable, s.vocab * s.dim]);
  be.run(embeddingBackwardKernel, { ...s, accumulate: s.accumulate ?? false }, [
    tokens,
    dout,
    dtable,
  ]);
}
