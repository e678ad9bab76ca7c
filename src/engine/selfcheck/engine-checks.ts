import type { Backend } from '../backend.ts';
import { CpuBackend } from '../cpu/cpu-backend.ts';
import { adamw, DEFAULT_ADAMW } from '../kernels/adamw.ts';
import { axpby, fill, mul } from '../kernels/elementwise.ts';
import { gatherRows } from '../kernels/gather.ts';
import { gelu, geluBackward } from '../kernels/gelu.ts';
import { matmul, type MatmulParams } from '../kernels/matmul.ts';
import { colSum, rowMax, rowSum } from '../kernels/reduce.ts';
import { parity, type SelfCheck } from './check.ts';
import { compare } from './compare.ts';
import { gradient } from './gradient.ts';
import { trainToyMlp } from './mlp.ts';

const N = { normal: 1 } as const;
const MATMUL_TOL = { atol: 1e-5, rtol: 1e-4 };
const ELEMENT_TOL = { atol: 1e-6, rtol: 1e-5 };
/** GPU tanh/exp are not correctly rounded; transcendental kernels get a looser bound. */
const TRANSCENDENTAL_TOL = { atol: 1e-5, rtol: 1e-4 };
const GRAD_TOL = { atol: 1e-3, rtol: 1e-2 };

function matmulParity(label: string, p: MatmulParams, bias: boolean): SelfCheck {
  const aSize = (p.batch ?? 1) * p.M * p.K;
  const bSize = (p.batch ?? 1) * p.K * p.N;
  return parity(`matmul ${label}`, {
    inputs: {
      a: { size: aSize, init: N },
      b: { size: bSize, init: N },
      bias: { size: p.N, init: N },
      c: { size: (p.batch ?? 1) * p.M * p.N, init: N },
    },
    outputs: ['c'],
    launch: (be, t) => matmul(be, t.c, t.a, t.b, p, bias ? t.bias : undefined),
    tol: MATMUL_TOL,
  });
}

/** Odd sizes on purpose: every edge of the 4×4 register tile gets exercised. */
const M = 13;
const K = 9;
const Nc = 7;

/** The engine's kernels: parity with the CPU twin, backward passes against finite differences. */
export const ENGINE_CHECKS: SelfCheck[] = [
  matmulParity('A·B + bias', { M, N: Nc, K }, true),
  matmulParity('A·Bᵀ', { M, N: Nc, K, transB: true }, false),
  matmulParity('Aᵀ·B', { M, N: Nc, K, transA: true }, false),
  matmulParity('Aᵀ·Bᵀ', { M, N: Nc, K, transA: true, transB: true }, false),
  matmulParity('+= A·B', { M, N: Nc, K, accumulate: true }, true),
  matmulParity('batched A·Bᵀ', { M: 5, N: 6, K: 8, transB: true, batch: 3 }, false),
  matmulParity('large 70×66·66×40', { M: 70, N: 40, K: 66 }, true),
  // Enough rows for the eight-column tile; 258 and 70 leave edges in both directions.
  matmulParity(
    'wide tile 258×33·33×70 + bias, accumulating',
    {
      M: 258,
      N: 70,
      K: 33,
      accumulate: true,
    },
    true,
  ),
  matmulParity(
    'wide tile Aᵀ·Bᵀ 258×33·33×70',
    { M: 258, N: 70, K: 33, transA: true, transB: true },
    false,
  ),
  gradient('matmul backward (dA = dC·Bᵀ, dB = Aᵀ·dC, dbias)', {
    inputs: {
      a: { size: M * K, init: N },
      b: { size: K * Nc, init: N },
      bias: { size: Nc, init: N },
      dc: { size: M * Nc, init: N },
    },
    wrt: ['a', 'b', 'bias'],
    upstream: 'dc',
    forward: (be, t) => {
      const c = be.alloc(M * Nc);
      matmul(be, c, t.a, t.b, { M, N: Nc, K }, t.bias);
      return c;
    },
    backward: (be, t) => {
      const da = be.alloc(M * K);
      const db = be.alloc(K * Nc);
      const dbias = be.alloc(Nc);
      matmul(be, da, t.dc, t.b, { M, N: K, K: Nc, transB: true });
      matmul(be, db, t.a, t.dc, { M: K, N: Nc, K: M, transA: true });
      colSum(be, dbias, t.dc, M, Nc);
      return { a: da, b: db, bias: dbias };
    },
    tol: GRAD_TOL,
  }),
  parity('axpby', {
    inputs: { a: { size: 1000, init: N }, b: { size: 1000, init: N }, out: { size: 1000 } },
    outputs: ['out'],
    launch: (be, t) => axpby(be, t.out, t.a, t.b, 0.75, -1.25),
    tol: ELEMENT_TOL,
  }),
  parity('add (accumulate)', {
    inputs: { a: { size: 777, init: N }, b: { size: 777, init: N }, out: { size: 777, init: N } },
    outputs: ['out'],
    launch: (be, t) => axpby(be, t.out, t.a, t.b, 1, 1, { accumulate: true }),
    tol: ELEMENT_TOL,
  }),
  parity('mul', {
    inputs: { a: { size: 513, init: N }, b: { size: 513, init: N }, out: { size: 513 } },
    outputs: ['out'],
    launch: (be, t) => mul(be, t.out, t.a, t.b, { alpha: 0.5 }),
    tol: ELEMENT_TOL,
  }),
  parity('fill', {
    inputs: { out: { size: 300, init: N } },
    outputs: ['out'],
    launch: (be, t) => fill(be, t.out, 0.25, 200),
    tol: ELEMENT_TOL,
  }),
  parity('gather rows (an index past the rows reads the last)', {
    inputs: {
      index: { size: 5, init: { data: Uint32Array.from([2, 0, 2, 1, 9]) } },
      src: { size: 3 * 40, init: N },
      dst: { size: 5 * 30, init: N },
    },
    outputs: ['dst'],
    launch: (be, t) =>
      gatherRows(be, t.dst, t.src, t.index, {
        rows: 5,
        rowLen: 30,
        stride: 40,
        offset: 7,
        srcRows: 3,
      }),
    tol: ELEMENT_TOL,
  }),
  parity('gelu forward', {
    inputs: { x: { size: 1024, init: { normal: 3 } }, y: { size: 1024 } },
    outputs: ['y'],
    launch: (be, t) => gelu(be, t.y, t.x),
    tol: TRANSCENDENTAL_TOL,
  }),
  parity('gelu backward', {
    inputs: {
      x: { size: 1024, init: { normal: 3 } },
      dy: { size: 1024, init: N },
      dx: { size: 1024 },
    },
    outputs: ['dx'],
    launch: (be, t) => geluBackward(be, t.dx, t.x, t.dy),
    tol: TRANSCENDENTAL_TOL,
  }),
  gradient('gelu backward vs finite differences', {
    inputs: { x: { size: 64, init: { normal: 2 } }, dy: { size: 64, init: N } },
    wrt: ['x'],
    upstream: 'dy',
    forward: (be, t) => {
      const y = be.alloc(64);
      gelu(be, y, t.x);
      return y;
    },
    backward: (be, t) => {
      const dx = be.alloc(64);
      geluBackward(be, dx, t.x, t.dy);
      return { x: dx };
    },
    tol: GRAD_TOL,
    samples: 64,
  }),
  parity('row sum', {
    inputs: { x: { size: 37 * 300, init: N }, out: { size: 37 } },
    outputs: ['out'],
    launch: (be, t) => rowSum(be, t.out, t.x, 37, 300),
    tol: { atol: 1e-4, rtol: 1e-4 },
  }),
  parity('row max', {
    inputs: { x: { size: 37 * 300, init: N }, out: { size: 37 } },
    outputs: ['out'],
    launch: (be, t) => rowMax(be, t.out, t.x, 37, 300),
    tol: { atol: 0, rtol: 0 },
  }),
  parity('column sum', {
    inputs: { x: { size: 45 * 19, init: N }, out: { size: 19 } },
    outputs: ['out'],
    launch: (be, t) => colSum(be, t.out, t.x, 45, 19),
    tol: { atol: 1e-5, rtol: 1e-5 },
  }),
  parity('adamw (3 steps)', {
    inputs: {
      param: { size: 500, init: N },
      grad: { size: 500, init: N },
      m: { size: 500 },
      v: { size: 500 },
      scale: { size: 1, init: { data: new Float32Array([0.5]) } },
    },
    outputs: ['param', 'm', 'v'],
    launch: (be, t) => {
      for (let step = 1; step <= 3; step++) {
        adamw(
          be,
          { param: t.param, grad: t.grad, m: t.m, v: t.v, gradScale: t.scale },
          { ...DEFAULT_ADAMW, weightDecay: 0.1 },
          step,
        );
      }
    },
    tol: { atol: 1e-6, rtol: 1e-5 },
  }),
  {
    name: 'MLP + AdamW, 50 steps: loss curve',
    kind: 'training',
    async run(be: Backend) {
      const [got, want] = [await trainToyMlp(be, 50), await trainToyMlp(new CpuBackend(), 50)];
      const c = compare(got, want, { atol: 1e-4, rtol: 1e-3 });
      const fell = got[got.length - 1] < 0.5 * got[0];
      return {
        name: this.name,
        kind: 'training',
        pass: c.pass && fell,
        maxError: c.maxError,
        detail: `loss ${got[0].toFixed(4)} → ${got[got.length - 1].toFixed(4)}${fell ? '' : ' (did not fall)'}`,
      };
    },
  },
];
