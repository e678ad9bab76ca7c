import shader from '../../../shaders/matmul.wgsl?raw';
import type { Backend, NumArray, Tensor } from '../backend.ts';
import { BackendError } from '../errors.ts';
import { requireElements, type Kernel } from '../kernel.ts';
import { matmulInto } from '../cpu/gemm.ts';
import { placeholder } from './placeholder.ts';

/** Shape and layout of C = op(A)·op(B) (+bias) (+=C), optionally batched with strides. */
export interface MatmulParams {
  M: number;
  N: number;
  K: number;
  transA?: boolean;
  transB?: boolean;
  accumulate?: boolean;
  hasBias?: boolean;
  batch?: number;
  /** Leading dimensions (row strides) in elements; default to the dense layout. */
  lda?: number;
  ldb?: number;
  ldc?: number;
  /** Element offsets between consecutive batch items. */
  strideA?: number;
  strideB?: number;
  strideC?: number;
}

type Resolved = Required<MatmulParams> & { wide: boolean };

/** Invocations of a launch with eight columns each, below which the four-column one is kept. */
const WIDE_MIN_INVOCATIONS = 512;

function resolve(p: MatmulParams): Resolved {
  const transA = p.transA ?? false;
  const transB = p.transB ?? false;
  const lda = p.lda ?? (transA ? p.M : p.K);
  const ldb = p.ldb ?? (transB ? p.K : p.N);
  const ldc = p.ldc ?? p.N;
  return {
    M: p.M,
    N: p.N,
    K: p.K,
    transA,
    transB,
    accumulate: p.accumulate ?? false,
    hasBias: p.hasBias ?? false,
    batch: p.batch ?? 1,
    lda,
    ldb,
    ldc,
    strideA: p.strideA ?? p.M * p.K,
    strideB: p.strideB ?? p.K * p.N,
    strideC: p.strideC ?? p.M * p.N,
    wide: Math.ceil(p.M / 4) * Math.ceil(p.N / 8) * (p.batch ?? 1) >= WIDE_MIN_INVOCATIONS,
  };
}

/** Reference twin: one matmulInto per batch item (see there for the precision of each path). */
function matmulCpu(p: Resolved, [A, B, bias, C]: NumArray[]): void {
  const { M, N, K } = p;
  for (let bt = 0; bt < p.batch; bt++) {
    // op(A)(i, k) and op(B)ᵀ(j, k) as strided views.
    const a = p.transA
      ? { data: A, offset: bt * p.strideA, rowStride: 1, colStride: p.lda }
      : { data: A, offset: bt * p.strideA, rowStride: p.lda, colStride: 1 };
    const b = p.transB
      ? { data: B, offset: bt * p.strideB, rowStride: p.ldb, colStride: 1 }
      : { data: B, offset: bt * p.strideB, rowStride: 1, colStride: p.ldb };
    const c = { data: C, offset: bt * p.strideC, rowStride: p.ldc };
    matmulInto(c, a, b, M, N, K, p.hasBias ? bias : null, p.accumulate);
  }
}

export const matmulKernel: Kernel<Resolved> = {
  name: 'matmul',
  shader,
  entry: 'matmul',
  access: ['read', 'read', 'read', 'write'],
  uniforms: (p) => [
    ['u32', p.M],
    ['u32', p.N],
    ['u32', p.K],
    ['u32', p.batch],
    ['u32', p.lda],
    ['u32', p.ldb],
    ['u32', p.ldc],
    ['u32', 0],
    ['u32', p.strideA],
    ['u32', p.strideB],
    ['u32', p.strideC],
    ['u32', 0],
  ],
  constants: (p) => ({
    TRANS_A: Number(p.transA),
    TRANS_B: Number(p.transB),
    HAS_BIAS: Number(p.hasBias),
    ACCUMULATE: Number(p.accumulate),
    WIDE: Number(p.wide),
  }),
  workgroups: (p) => [Math.ceil(p.N / (p.wide ? 64 : 32)), Math.ceil(p.M / 32), p.batch],
  cpu: matmulCpu,
};

/** C = op(A)·op(B) (+ bias) (+= C). Shapes are checked before anything is queued. */
export function matmul(
  be: Backend,
  out: Tensor,
  a: Tensor,
  b: Tensor,
  params: MatmulParams,
  bias?: Tensor,
): void {
  const p = resolve({ ...params, hasBias: bias !== undefined });
  for (const v of [p.M, p.N, p.K, p.batch]) {
    if (!Number.isInteger(v) || v <= 0)
      throw new BackendError(`matmul: bad shape ${JSON.stringify(params)}`);
  }
  const last = p.batch - 1;
  requireElements(
    'matmul A',
    last * p.strideA + (p.transA ? (p.K - 1) * p.lda + p.M : (p.M - 1) * p.lda + p.K),
    a,
  );
  requireElements(
    'matmul B',
    last * p.strideB + (p.transB ? (p.N - 1) * p.ldb + p.K : (p.K - 1) * p.ldb + p.N),
    b,
  );
  requireElements('matmul C', last * p.strideC + (p.M - 1) * p.ldc + p.N, out);
  if (bias) requireElements('matmul bias', p.N, bias);
  be.run(matmulKernel, p, [a, b, bias ?? placeholder(be), out]);
}
