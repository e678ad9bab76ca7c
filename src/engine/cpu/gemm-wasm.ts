import { assemble, Func, I32, op, simd, V128 } from './wasm-writer.ts';

/** The microkernel's output tile: MR rows × 4·NV columns, and how far the K loop is unrolled. */
export interface Tile {
  MR: number;
  NV: number;
  KU: number;
  /** Accumulate with relaxed SIMD's fused multiply-add (half the instructions) where it exists. */
  fma: boolean;
  /**
   * A's k-stride is one float (row-major A, `aK` ignored): within an unrolled block the A loads
   * take constant offsets, and each row's pointer moves once per block instead of once per k.
   */
  aRows?: boolean;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Bits of gemm's `flags`. */
export const FIRST_PASS = 1;
export const ADD_BIAS = 2;
export const ADD_C = 4;

/**
 * The SIMD GEMM as a WebAssembly module, assembled here rather than compiled by a toolchain.
 * Its one function, gemm(a, aR, aK, b, bK, c, M, N, K, MC, flags, bias, c0), computes
 * C [M×N] = A·Bᵀ at byte address c (row-major, no gaps), with A(i, k) at a + i·aR + k·aK and
 * B(j, k) at b + 4j + k·bK: B's columns must be adjacent, A may be row- or column-major. Without
 * FIRST_PASS it adds to C instead (K split into passes); ADD_BIAS then adds bias[j] (at `bias`)
 * and ADD_C a matrix laid out as C (at c0), in that order, as matmul's epilogue does on the GPU.
 * M and N must be multiples of the tile: rows and columns past the data read whatever lies there
 * and land only in C's padding. Rows go in blocks of MC, so a block of A stays in L2 while the
 * column panels of B (L1-sized) pass over it.
 *
 * Each tile keeps MR×NV f32x4 accumulators in registers; a step of k broadcasts one A value per
 * row and multiplies each of NV vectors of B with them. Products and sums are f32, as on the GPU.
 */
export function gemmModule({ MR, NV, KU, fma, aRows = false }: Tile): Uint8Array<ArrayBuffer> {
  const NR = 4 * NV;
  const f = new Func('gemm', new Array<number>(13).fill(I32));
  const [a, aR, aK, b, bK, c, M, N, K, MC, flags, bias, c0] = range(13);
  const [i0, iEnd, j, i, pb, pc, kLeft] = range(7).map(() => f.local(I32));
  const pa = range(MR).map(() => f.local(I32));
  const acc = range(MR).map(() => range(NV).map(() => f.local(V128)));
  const bv = range(NV).map(() => f.local(V128));
  const av = range(MR).map(() => f.local(V128));
  const bvec = f.local(V128);

  const add = (local: number, amount: () => void) => {
    f.get(local);
    amount();
    f.op(op.i32Add).set(local);
  };
  const load = (ptr: number, offset: number) => f.get(ptr).simdMem(simd.load, offset);
  // One k (the u-th of an unrolled block): one broadcast A value per row, then each vector of B
  // times all of them: MR·NV + MR + 1 live vectors (16 for the 3×16 tile) where holding all of
  // B's took MR·NV + NV + 1 (17, past x64's 16 registers); about 5% faster on the model's shapes.
  const step = (u = 0, last = true) => {
    for (let r = 0; r < MR; r++) {
      f.get(pa[r])
        .simdMem(simd.load32Splat, aRows ? 4 * u : 0)
        .set(av[r]);
      if (!aRows) add(pa[r], () => f.get(aK));
      else if (last) add(pa[r], () => f.i32(4 * (u + 1)));
    }
    for (let v = 0; v < NV; v++) {
      load(pb, 16 * v).set(bvec);
      for (let r = 0; r < MR; r++) {
        if (fma) f.get(av[r]).get(bvec).get(acc[r][v]).simd(simd.f32x4RelaxedMadd);
        else f.get(acc[r][v]).get(av[r]).get(bvec).simd(simd.f32x4Mul).simd(simd.f32x4Add);
        f.set(acc[r][v]);
      }
    }
    add(pb, () => f.get(bK));
  };
  // Visit the tile at (i, j) of C, or of a matrix laid out alike: pc = base + (i·N + j)·4, then
  // N floats further per row.
  const cTile = (base: number, each: (r: number, v: number) => void) => {
    f.get(base).get(i).get(N).op(op.i32Mul).get(j).op(op.i32Add).i32(2).op(op.i32Shl);
    f.op(op.i32Add).set(pc);
    for (let r = 0; r < MR; r++) {
      if (r > 0) add(pc, () => f.get(N).i32(2).op(op.i32Shl));
      for (let v = 0; v < NV; v++) each(r, v);
    }
  };
  const addToAcc = (r: number, v: number, value: () => void) => {
    f.get(acc[r][v]);
    value();
    f.simd(simd.f32x4Add).set(acc[r][v]);
  };
  const has = (flag: number) => () => f.get(flags).i32(flag).op(op.i32And);

  const microkernel = () => {
    f.get(a).get(i).get(aR).op(op.i32Mul).op(op.i32Add).set(pa[0]);
    for (let r = 1; r < MR; r++) {
      const above = pa[r - 1];
      f.get(above).get(aR).op(op.i32Add).set(pa[r]);
    }
    f.get(b).get(j).i32(2).op(op.i32Shl).op(op.i32Add).set(pb);
    f.if(
      has(FIRST_PASS),
      () => cTile(c, (r, v) => f.zeroV128().set(acc[r][v])),
      () => cTile(c, (r, v) => load(pc, 16 * v).set(acc[r][v])),
    );
    f.get(K).set(kLeft);
    f.whileLoop(
      () => f.get(kLeft).i32(KU).op(op.i32GeU),
      () => {
        for (let u = 0; u < KU; u++) step(u, u === KU - 1);
        f.get(kLeft).i32(KU).op(op.i32Sub).set(kLeft);
      },
    );
    f.whileLoop(
      () => f.get(kLeft),
      () => {
        step();
        f.get(kLeft).i32(1).op(op.i32Sub).set(kLeft);
      },
    );
    f.if(has(ADD_BIAS), () => {
      f.get(bias).get(j).i32(2).op(op.i32Shl).op(op.i32Add).set(pb);
      for (let v = 0; v < NV; v++) load(pb, 16 * v).set(bv[v]);
      for (let r = 0; r < MR; r++) for (let v = 0; v < NV; v++) addToAcc(r, v, () => f.get(bv[v]));
    });
    f.if(has(ADD_C), () => cTile(c0, (r, v) => addToAcc(r, v, () => load(pc, 16 * v))));
    const store = (r: number, v: number) => {
      f.get(pc).get(acc[r][v]);
      f.simdMem(simd.store, 16 * v);
    };
    cTile(c, store);
  };

  f.doWhile(() => {
    // iEnd = min(i0 + MC, M)
    f.get(i0).get(MC).op(op.i32Add).tee(iEnd).get(M).get(iEnd).get(M).op(op.i32LtU);
    f.op(op.select).set(iEnd);
    f.i32(0).set(j);
    f.doWhile(() => {
      f.get(i0).set(i);
      f.doWhile(() => {
        microkernel();
        add(i, () => f.i32(MR));
        f.get(i).get(iEnd).op(op.i32LtU);
      });
      add(j, () => f.i32(NR));
      f.get(j).get(N).op(op.i32LtU);
    });
    f.get(iEnd).tee(i0).get(M).op(op.i32LtU);
  });
  return assemble(f);
}
