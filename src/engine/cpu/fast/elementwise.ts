// Element-wise kernels four lanes at a time: the fast CPU paths of elementwise.axpby and .mul,
// reduce.col_sum and adamw. Each keeps the twin's order of operations, in f32.
import type { NumArray } from '../../backend.ts';
import type { ElementwiseParams as Elementwise } from '../../kernels/elementwise.ts';
import { vectorLoop } from './simd-math.ts';
import { IN, INOUT, OUT, bind, instantiate, zero } from './heap.ts';

const binary = (name: string, combine: string) => `
(func $${name} (param $a i32) (param $b i32) (param $out i32) (param $n i32) (param $alpha f32)
  (param $beta f32) (param $acc i32)
  (local $end i32) (local $av v128) (local $bv v128) (local $v v128)
  local.get $alpha f32x4.splat local.set $av
  local.get $beta f32x4.splat local.set $bv
  local.get $a local.get $n i32.const 2 i32.shl i32.add local.set $end
  ${vectorLoop(
    '$a',
    '$end',
    ['$a', '$b', '$out'],
    `${combine} local.set $v
    local.get $acc if
      local.get $v local.get $out v128.load f32x4.add local.set $v
    end
    local.get $out local.get $v v128.store`,
  )})`;

const WAT = `
${binary(
  'axpby',
  'local.get $av local.get $a v128.load f32x4.mul local.get $bv local.get $b v128.load f32x4.mul f32x4.add',
)}
${binary('mul', 'local.get $av local.get $a v128.load f32x4.mul local.get $b v128.load f32x4.mul')}
(func $colSum (param $x i32) (param $out i32) (param $rows i32) (param $cols i32)
  (local $r i32) (local $rowBytes i32) (local $c i32) (local $p i32)
  local.get $cols i32.const 2 i32.shl local.set $rowBytes
  block $rowsDone loop $row
    local.get $r local.get $rows i32.ge_u br_if $rowsDone
    i32.const 0 local.set $c
    block $colsDone loop $col
      local.get $c local.get $rowBytes i32.ge_u br_if $colsDone
      local.get $out local.get $c i32.add local.tee $p
      local.get $p v128.load local.get $x local.get $c i32.add v128.load f32x4.add v128.store
      local.get $c i32.const 16 i32.add local.set $c
      br $col
    end end
    local.get $x local.get $rowBytes i32.add local.set $x
    local.get $r i32.const 1 i32.add local.set $r
    br $row
  end end)
(func $adamw (param $grad i32) (param $param i32) (param $m i32) (param $v i32) (param $n i32)
  (param $s f32) (param $b1 f32) (param $b2 f32) (param $lr f32) (param $eps f32) (param $wd f32)
  (param $bc1 f32) (param $bc2 f32)
  (local $end i32) (local $g v128) (local $mi v128) (local $vi v128) (local $w v128)
  (local $sv v128) (local $b1v v128) (local $b1c v128) (local $b2v v128) (local $b2c v128)
  (local $lrv v128) (local $epsv v128) (local $wdv v128) (local $bc1v v128) (local $bc2v v128)
  local.get $s f32x4.splat local.set $sv
  local.get $b1 f32x4.splat local.set $b1v
  f32.const 1 local.get $b1 f32.sub f32x4.splat local.set $b1c
  local.get $b2 f32x4.splat local.set $b2v
  f32.const 1 local.get $b2 f32.sub f32x4.splat local.set $b2c
  local.get $lr f32x4.splat local.set $lrv
  local.get $eps f32x4.splat local.set $epsv
  local.get $wd f32x4.splat local.set $wdv
  local.get $bc1 f32x4.splat local.set $bc1v
  local.get $bc2 f32x4.splat local.set $bc2v
  local.get $grad local.get $n i32.const 2 i32.shl i32.add local.set $end
  ${vectorLoop(
    '$grad',
    '$end',
    ['$grad', '$param', '$m', '$v'],
    `local.get $grad v128.load local.get $sv f32x4.mul local.set $g
    local.get $b1v local.get $m v128.load f32x4.mul local.get $b1c local.get $g f32x4.mul f32x4.add
    local.set $mi
    local.get $b2v local.get $v v128.load f32x4.mul
    local.get $b2c local.get $g f32x4.mul local.get $g f32x4.mul f32x4.add local.set $vi
    local.get $m local.get $mi v128.store
    local.get $v local.get $vi v128.store
    local.get $param v128.load local.set $w
    local.get $param
    local.get $w
    local.get $lrv
    local.get $mi local.get $bc1v f32x4.div
    local.get $vi local.get $bc2v f32x4.div f32x4.sqrt local.get $epsv f32x4.add f32x4.div
    local.get $wdv local.get $w f32x4.mul f32x4.add
    f32x4.mul f32x4.sub
    v128.store`,
  )})`;

const wasm = instantiate<{
  axpby(...args: number[]): void;
  mul(...args: number[]): void;
  colSum(x: number, out: number, rows: number, cols: number): void;
  adamw(...args: number[]): void;
}>(WAT);

const f32 = (arrays: NumArray[]) => arrays.every((a) => a instanceof Float32Array);

function binaryFast(which: 'axpby' | 'mul', p: Elementwise, arrays: NumArray[]): boolean {
  if (!wasm || !f32(arrays)) return false;
  const [a, b, out] = arrays;
  const io = bind([
    { array: a, n: p.n, use: IN },
    { array: b, n: p.n, use: IN },
    { array: out, n: p.n, use: p.accumulate ? INOUT : OUT },
  ]);
  wasm[which](...io.at, p.n, p.alpha, p.beta, Number(p.accumulate));
  io.done();
  return true;
}

export const axpbyFast = (p: Elementwise, arrays: NumArray[]) => binaryFast('axpby', p, arrays);
export const mulFast = (p: Elementwise, arrays: NumArray[]) => binaryFast('mul', p, arrays);

/** Column sums of a rows×cols matrix (cols = 4k), summed down each column in order. */
export function colSumFast(
  p: { rows: number; cols: number; accumulate: boolean },
  arrays: NumArray[],
): boolean {
  const [x, out] = arrays;
  if (!wasm || p.cols % 4 !== 0 || !f32(arrays)) return false;
  const io = bind([
    { array: x, n: p.rows * p.cols, use: IN },
    { array: out, n: p.cols, use: INOUT },
  ]);
  if (!p.accumulate) zero(io.at[1], p.cols);
  wasm.colSum(io.at[0], io.at[1], p.rows, p.cols);
  io.done();
  return true;
}

/** One AdamW update (see kernels/adamw.ts); the hyperparameters come f32-rounded. */
export function adamwFast(
  h: {
    n: number;
    b1: number;
    b2: number;
    lr: number;
    eps: number;
    wd: number;
    bc1: number;
    bc2: number;
  },
  arrays: NumArray[],
): boolean {
  const [grad, gscale, param, m, v] = arrays;
  if (!wasm || !f32(arrays)) return false;
  const { n } = h;
  const s = gscale[0];
  if (s < 0) return true; // a skipped step: nothing to write
  const io = bind([
    { array: grad, n, use: IN },
    { array: param, n, use: INOUT },
    { array: m, n, use: INOUT },
    { array: v, n, use: INOUT },
  ]);
  wasm.adamw(...io.at, n, s, h.b1, h.b2, h.lr, h.eps, h.wd, h.bc1, h.bc2);
  io.done();
  return true;
}
