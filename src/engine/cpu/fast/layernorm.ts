// LayerNorm over rows of D = 4k features, four features at a time: the fast CPU path of
// layernorm.forward, backward_input and backward_params. Sums run in f32 across four lanes.
import type { NumArray } from '../../backend.ts';
import type { LayerNormParams as Shape } from '../../kernels/layernorm.ts';
import { IN, INOUT, OUT, bind, instantiate, zero } from './heap.ts';

/** The four lanes of a v128 on the stack, summed. $h scratch. */
const hsum = `local.set $h
    local.get $h f32x4.extract_lane 0 local.get $h f32x4.extract_lane 1 f32.add
    local.get $h f32x4.extract_lane 2 f32.add local.get $h f32x4.extract_lane 3 f32.add`;

/** `body` for c = 0, 16, 32 … < $rowBytes (byte offset within a row in $c). */
const overRow = (body: string) => `
    i32.const 0 local.set $c
    block $cols loop $col
      local.get $c local.get $rowBytes i32.ge_u br_if $cols
      ${body}
      local.get $c i32.const 16 i32.add local.set $c
      br $col
    end end`;

/** `body` for every row r < $rows, $o the row's byte offset. */
const overRows = (body: string) => `
    i32.const 0 local.set $r
    i32.const 0 local.set $o
    block $rowsDone loop $row
      local.get $r local.get $rows i32.ge_u br_if $rowsDone
      ${body}
      local.get $r i32.const 1 i32.add local.set $r
      local.get $o local.get $rowBytes i32.add local.set $o
      br $row
    end end`;

const LOCALS = `(local $r i32) (local $o i32) (local $c i32) (local $rowBytes i32) (local $h v128)
    (local $acc v128) (local $acc2 v128) (local $m f32) (local $s f32) (local $mv v128)
    (local $sv v128) (local $e v128)`;

const WAT = `
(func $forward (param $x i32) (param $gamma i32) (param $beta i32) (param $y i32) (param $mean i32)
  (param $rstd i32) (param $rows i32) (param $dim i32) (param $eps f32) ${LOCALS}
  local.get $dim i32.const 2 i32.shl local.set $rowBytes
  ${overRows(`
    v128.const f32x4 0 0 0 0 local.set $acc
    ${overRow(`local.get $acc local.get $x local.get $o i32.add local.get $c i32.add v128.load
      f32x4.add local.set $acc`)}
    local.get $acc ${hsum} local.get $dim f32.convert_i32_u f32.div local.set $m
    local.get $m f32x4.splat local.set $mv
    v128.const f32x4 0 0 0 0 local.set $acc
    ${overRow(`local.get $x local.get $o i32.add local.get $c i32.add v128.load local.get $mv
      f32x4.sub local.tee $e local.get $e f32x4.mul local.get $acc f32x4.add local.set $acc`)}
    f32.const 1
    local.get $acc ${hsum} local.get $dim f32.convert_i32_u f32.div local.get $eps f32.add
    f32.sqrt f32.div local.set $s
    local.get $s f32x4.splat local.set $sv
    ${overRow(`local.get $y local.get $o i32.add local.get $c i32.add
      local.get $x local.get $o i32.add local.get $c i32.add v128.load local.get $mv f32x4.sub
      local.get $sv f32x4.mul local.get $gamma local.get $c i32.add v128.load f32x4.mul
      local.get $beta local.get $c i32.add v128.load f32x4.add
      v128.store`)}
    local.get $mean local.get $r i32.const 2 i32.shl i32.add local.get $m f32.store
    local.get $rstd local.get $r i32.const 2 i32.shl i32.add local.get $s f32.store`)})

(func $backwardInput (param $x i32) (param $gamma i32) (param $mean i32) (param $rstd i32)
  (param $dy i32) (param $dx i32) (param $rows i32) (param $dim i32) (param $accumulate i32)
  ${LOCALS} (local $meanD v128) (local $meanDX v128) (local $g v128)
  local.get $dim i32.const 2 i32.shl local.set $rowBytes
  ${overRows(`
    local.get $mean local.get $r i32.const 2 i32.shl i32.add f32.load f32x4.splat local.set $mv
    local.get $rstd local.get $r i32.const 2 i32.shl i32.add f32.load f32x4.splat local.set $sv
    v128.const f32x4 0 0 0 0 local.set $acc
    v128.const f32x4 0 0 0 0 local.set $acc2
    ${overRow(`;; dxhat = dy·gamma; sums of dxhat and of dxhat·xhat
      local.get $dy local.get $o i32.add local.get $c i32.add v128.load
      local.get $gamma local.get $c i32.add v128.load f32x4.mul local.tee $e
      local.get $acc f32x4.add local.set $acc
      local.get $e
      local.get $x local.get $o i32.add local.get $c i32.add v128.load local.get $mv f32x4.sub
      local.get $sv f32x4.mul f32x4.mul local.get $acc2 f32x4.add local.set $acc2`)}
    local.get $acc ${hsum} local.get $dim f32.convert_i32_u f32.div f32x4.splat local.set $meanD
    local.get $acc2 ${hsum} local.get $dim f32.convert_i32_u f32.div f32x4.splat
    local.set $meanDX
    ${overRow(`;; g = s·(dy·gamma − meanD − xhat·meanDX)
      local.get $dy local.get $o i32.add local.get $c i32.add v128.load
      local.get $gamma local.get $c i32.add v128.load f32x4.mul local.get $meanD f32x4.sub
      local.get $x local.get $o i32.add local.get $c i32.add v128.load local.get $mv f32x4.sub
      local.get $sv f32x4.mul local.get $meanDX f32x4.mul f32x4.sub
      local.get $sv f32x4.mul local.set $g
      local.get $accumulate if
        local.get $g local.get $dx local.get $o i32.add local.get $c i32.add v128.load
        f32x4.add local.set $g
      end
      local.get $dx local.get $o i32.add local.get $c i32.add local.get $g v128.store`)}`)})

(func $backwardParams (param $x i32) (param $mean i32) (param $rstd i32) (param $dy i32)
  (param $dgamma i32) (param $dbeta i32) (param $rows i32) (param $dim i32) ${LOCALS}
  local.get $dim i32.const 2 i32.shl local.set $rowBytes
  ${overRows(`
    local.get $mean local.get $r i32.const 2 i32.shl i32.add f32.load f32x4.splat local.set $mv
    local.get $rstd local.get $r i32.const 2 i32.shl i32.add f32.load f32x4.splat local.set $sv
    ${overRow(`local.get $dy local.get $o i32.add local.get $c i32.add v128.load local.set $e
      local.get $dgamma local.get $c i32.add
      local.get $e
      local.get $x local.get $o i32.add local.get $c i32.add v128.load local.get $mv f32x4.sub
      local.get $sv f32x4.mul f32x4.mul
      local.get $dgamma local.get $c i32.add v128.load f32x4.add v128.store
      local.get $dbeta local.get $c i32.add
      local.get $e local.get $dbeta local.get $c i32.add v128.load f32x4.add v128.store`)}`)})`;

const wasm = instantiate<{
  forward(...args: number[]): void;
  backwardInput(...args: number[]): void;
  backwardParams(...args: number[]): void;
}>(WAT);

const usable = (p: Shape, arrays: NumArray[]) =>
  wasm !== null && p.dim % 4 === 0 && arrays.every((a) => a instanceof Float32Array);

export function layerNormForwardFast(p: Shape, arrays: NumArray[]): boolean {
  if (!wasm || !usable(p, arrays)) return false;
  const [x, gamma, beta, y, mean, rstd] = arrays;
  const n = p.rows * p.dim;
  const io = bind([
    { array: x, n, use: IN },
    { array: gamma, n: p.dim, use: IN },
    { array: beta, n: p.dim, use: IN },
    { array: y, n, use: OUT },
    { array: mean, n: p.rows, use: OUT },
    { array: rstd, n: p.rows, use: OUT },
  ]);
  wasm.forward(...io.at, p.rows, p.dim, p.eps);
  io.done();
  return true;
}

export function layerNormBackwardInputFast(p: Shape, arrays: NumArray[]): boolean {
  if (!wasm || !usable(p, arrays)) return false;
  const [x, gamma, mean, rstd, dy, dx] = arrays;
  const n = p.rows * p.dim;
  const io = bind([
    { array: x, n, use: IN },
    { array: gamma, n: p.dim, use: IN },
    { array: mean, n: p.rows, use: IN },
    { array: rstd, n: p.rows, use: IN },
    { array: dy, n, use: IN },
    { array: dx, n, use: p.accumulate ? INOUT : OUT },
  ]);
  wasm.backwardInput(...io.at, p.rows, p.dim, Number(p.accumulate));
  io.done();
  return true;
}

export function layerNormBackwardParamsFast(p: Shape, arrays: NumArray[]): boolean {
  if (!wasm || !usable(p, arrays)) return false;
  const [x, mean, rstd, dy, dgamma, dbeta] = arrays;
  const n = p.rows * p.dim;
  const io = bind([
    { array: x, n, use: IN },
    { array: mean, n: p.rows, use: IN },
    { array: rstd, n: p.rows, use: IN },
    { array: dy, n, use: IN },
    { array: dgamma, n: p.dim, use: INOUT },
    { array: dbeta, n: p.dim, use: INOUT },
  ]);
  if (!p.accumulate) {
    zero(io.at[4], p.dim);
    zero(io.at[5], p.dim);
  }
  wasm.backwardParams(...io.at, p.rows, p.dim);
  io.done();
  return true;
}
