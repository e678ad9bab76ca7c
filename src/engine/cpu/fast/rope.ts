// RoPE four pairs at a time: the fast CPU path of rope.forward and rope.backward (head dimension
// a multiple of 8). Positions and the cos/sin columns are laid out in JS; the rotation runs in
// WebAssembly.
import type { NumArray } from '../../backend.ts';
import { IN, INOUT, OUT, bind, instantiate, put } from './heap.ts';

/**
 * For every (row of B·Tq, head): the pairs (x[i], x[i + half]) of each of the `parts` blocks of
 * `src` rotated by the row's angle, into `dst` (the rotation by −angle when `inverse`).
 * src row r, head h, block p starts at ((r·3 + p)·H + h)·dh in `qkv` order (forward) or at
 * p's own [B, H, Tq, dh] array (backward), so the two directions get their own loops.
 */
const rotate = (x1: string, x2: string, c: string, s: string, sign: string) => `
    local.get ${x1} local.get ${c} f32x4.mul local.get ${x2} local.get ${s} f32x4.mul ${sign === '+' ? 'f32x4.sub' : 'f32x4.add'}
    local.get ${x1} local.get ${s} f32x4.mul ${sign === '+' ? '' : 'f32x4.neg'} local.get ${x2} local.get ${c} f32x4.mul f32x4.add`;

const WAT = `
(func $forward (param $qkv i32) (param $pos i32) (param $cos i32) (param $sin i32) (param $q i32)
  (param $k i32) (param $v i32) (param $B i32) (param $Tq i32) (param $H i32) (param $dh i32)
  (param $cap i32) (param $qOffset i32) (local $ko i32)
  (local $b i32) (local $t i32) (local $h i32) (local $i i32) (local $half i32) (local $row i32)
  (local $o i32) (local $cs i32) (local $x1 v128) (local $x2 v128) (local $c v128) (local $s v128)
  (local $k1 v128) (local $k2 v128) (local $d i32) (local $rowBytes i32) (local $tmp v128)
  local.get $dh i32.const 1 i32.shr_u local.set $half
  local.get $H local.get $dh i32.mul local.set $d
  local.get $d i32.const 12 i32.mul local.set $rowBytes
  block $bDone loop $bNext
    local.get $b local.get $B i32.ge_u br_if $bDone
    i32.const 0 local.set $t
    block $tDone loop $tNext
      local.get $t local.get $Tq i32.ge_u br_if $tDone
      ;; cos/sin row of this position: half values each
      local.get $pos local.get $b local.get $Tq i32.mul local.get $t i32.add i32.const 2 i32.shl
      i32.add i32.load local.get $half i32.mul i32.const 2 i32.shl local.set $cs
      local.get $qkv local.get $b local.get $Tq i32.mul local.get $t i32.add local.get $rowBytes
      i32.mul i32.add local.set $row
      i32.const 0 local.set $h
      block $hDone loop $hNext
        local.get $h local.get $H i32.ge_u br_if $hDone
        ;; (b, h, t) in [B, H, Tq, dh] for q, and at cache column qOffset + t for k and v, bytes
        local.get $b local.get $H i32.mul local.get $h i32.add local.get $Tq i32.mul
        local.get $t i32.add local.get $dh i32.mul i32.const 2 i32.shl local.set $o
        local.get $b local.get $H i32.mul local.get $h i32.add local.get $cap i32.mul
        local.get $qOffset i32.add local.get $t i32.add local.get $dh i32.mul i32.const 2 i32.shl
        local.set $ko
        i32.const 0 local.set $i
        block $iDone loop $iNext
          local.get $i local.get $half i32.ge_u br_if $iDone
          local.get $cos local.get $cs i32.add local.get $i i32.const 2 i32.shl i32.add v128.load
          local.set $c
          local.get $sin local.get $cs i32.add local.get $i i32.const 2 i32.shl i32.add v128.load
          local.set $s
          ;; q pair
          local.get $row local.get $h local.get $dh i32.mul local.get $i i32.add i32.const 2
          i32.shl i32.add local.tee $cs
          v128.load local.set $x1
          local.get $cs local.get $half i32.const 2 i32.shl i32.add v128.load local.set $x2
          ;; k pair, d further along the row
          local.get $cs local.get $d i32.const 2 i32.shl i32.add v128.load local.set $k1
          local.get $cs local.get $d i32.const 2 i32.shl i32.add local.get $half i32.const 2
          i32.shl i32.add v128.load local.set $k2
          ${rotate('$x1', '$x2', '$c', '$s', '+')} local.set $tmp local.set $x1
          local.get $q local.get $o i32.add local.get $i i32.const 2 i32.shl i32.add local.get $x1
          v128.store
          local.get $q local.get $o i32.add local.get $i local.get $half i32.add i32.const 2
          i32.shl i32.add local.get $tmp v128.store
          ${rotate('$k1', '$k2', '$c', '$s', '+')} local.set $tmp local.set $x1
          local.get $k local.get $ko i32.add local.get $i i32.const 2 i32.shl i32.add local.get $x1
          v128.store
          local.get $k local.get $ko i32.add local.get $i local.get $half i32.add i32.const 2
          i32.shl i32.add local.get $tmp v128.store
          ;; v copied, 2d further
          local.get $v local.get $ko i32.add local.get $i i32.const 2 i32.shl i32.add
          local.get $cs local.get $d i32.const 3 i32.shl i32.add v128.load v128.store
          local.get $v local.get $ko i32.add local.get $i local.get $half i32.add i32.const 2
          i32.shl i32.add
          local.get $cs local.get $d i32.const 3 i32.shl i32.add local.get $half i32.const 2
          i32.shl i32.add v128.load v128.store
          ;; the cos/sin row again ($cs was borrowed)
          local.get $pos local.get $b local.get $Tq i32.mul local.get $t i32.add i32.const 2
          i32.shl i32.add i32.load local.get $half i32.mul i32.const 2 i32.shl local.set $cs
          local.get $i i32.const 4 i32.add local.set $i
          br $iNext
        end end
        local.get $h i32.const 1 i32.add local.set $h
        br $hNext
      end end
      local.get $t i32.const 1 i32.add local.set $t
      br $tNext
    end end
    local.get $b i32.const 1 i32.add local.set $b
    br $bNext
  end end)

(func $backward (param $dq i32) (param $dk i32) (param $dv i32) (param $pos i32) (param $cos i32)
  (param $sin i32) (param $dqkv i32) (param $B i32) (param $Tq i32) (param $H i32) (param $dh i32)
  (local $b i32) (local $t i32) (local $h i32) (local $i i32) (local $half i32) (local $row i32)
  (local $o i32) (local $cs i32) (local $x1 v128) (local $x2 v128) (local $c v128) (local $s v128)
  (local $d i32) (local $rowBytes i32) (local $tmp v128) (local $at i32)
  local.get $dh i32.const 1 i32.shr_u local.set $half
  local.get $H local.get $dh i32.mul local.set $d
  local.get $d i32.const 12 i32.mul local.set $rowBytes
  block $bDone loop $bNext
    local.get $b local.get $B i32.ge_u br_if $bDone
    i32.const 0 local.set $t
    block $tDone loop $tNext
      local.get $t local.get $Tq i32.ge_u br_if $tDone
      local.get $pos local.get $b local.get $Tq i32.mul local.get $t i32.add i32.const 2 i32.shl
      i32.add i32.load local.get $half i32.mul i32.const 2 i32.shl local.set $cs
      local.get $dqkv local.get $b local.get $Tq i32.mul local.get $t i32.add local.get $rowBytes
      i32.mul i32.add local.set $row
      i32.const 0 local.set $h
      block $hDone loop $hNext
        local.get $h local.get $H i32.ge_u br_if $hDone
        local.get $b local.get $H i32.mul local.get $h i32.add local.get $Tq i32.mul
        local.get $t i32.add local.get $dh i32.mul i32.const 2 i32.shl local.set $o
        i32.const 0 local.set $i
        block $iDone loop $iNext
          local.get $i local.get $half i32.ge_u br_if $iDone
          local.get $cos local.get $cs i32.add local.get $i i32.const 2 i32.shl i32.add v128.load
          local.set $c
          local.get $sin local.get $cs i32.add local.get $i i32.const 2 i32.shl i32.add v128.load
          local.set $s
          local.get $row local.get $h local.get $dh i32.mul local.get $i i32.add i32.const 2
          i32.shl i32.add local.set $at
          ;; dq rotated back, into the q part of the row
          local.get $dq local.get $o i32.add local.get $i i32.const 2 i32.shl i32.add v128.load
          local.set $x1
          local.get $dq local.get $o i32.add local.get $i local.get $half i32.add i32.const 2
          i32.shl i32.add v128.load local.set $x2
          ${rotate('$x1', '$x2', '$c', '$s', '-')} local.set $tmp local.set $x1
          local.get $at local.get $x1 v128.store
          local.get $at local.get $half i32.const 2 i32.shl i32.add local.get $tmp v128.store
          ;; dk into the k part
          local.get $dk local.get $o i32.add local.get $i i32.const 2 i32.shl i32.add v128.load
          local.set $x1
          local.get $dk local.get $o i32.add local.get $i local.get $half i32.add i32.const 2
          i32.shl i32.add v128.load local.set $x2
          ${rotate('$x1', '$x2', '$c', '$s', '-')} local.set $tmp local.set $x1
          local.get $at local.get $d i32.const 2 i32.shl i32.add local.get $x1 v128.store
          local.get $at local.get $d i32.const 2 i32.shl i32.add local.get $half i32.const 2
          i32.shl i32.add local.get $tmp v128.store
          ;; dv copied into the v part
          local.get $at local.get $d i32.const 3 i32.shl i32.add
          local.get $dv local.get $o i32.add local.get $i i32.const 2 i32.shl i32.add v128.load
          v128.store
          local.get $at local.get $d i32.const 3 i32.shl i32.add local.get $half i32.const 2
          i32.shl i32.add
          local.get $dv local.get $o i32.add local.get $i local.get $half i32.add i32.const 2
          i32.shl i32.add v128.load v128.store
          local.get $i i32.const 4 i32.add local.set $i
          br $iNext
        end end
        local.get $h i32.const 1 i32.add local.set $h
        br $hNext
      end end
      local.get $t i32.const 1 i32.add local.set $t
      br $tNext
    end end
    local.get $b i32.const 1 i32.add local.set $b
    br $bNext
  end end)`;

const wasm = instantiate<{
  forward(...args: number[]): void;
  backward(...args: number[]): void;
}>(WAT);

interface Shape {
  B: number;
  Tq: number;
  H: number;
  dh: number;
  cap: number;
  qOffset: number;
  tableLen: number;
}

/**
 * Writes the table row of every (b, t) (columns from `qOffset`) and the table split into its cos
 * and sin columns into scratch at `at`.
 */
function layout(p: Shape, start: NumArray, table: NumArray, at: number[], qOffset: number): void {
  const { B, Tq, tableLen, dh } = p;
  const half = dh / 2;
  const pos = new Int32Array(B * Tq);
  for (let b = 0; b < B; b++)
    for (let t = 0; t < Tq; t++) {
      const col = qOffset + t;
      pos[b * Tq + t] = Math.min(col >= start[b] ? col - start[b] : 0, tableLen - 1);
    }
  const cos = new Float32Array(tableLen * half);
  const sin = new Float32Array(tableLen * half);
  for (let i = 0; i < tableLen * half; i++) {
    cos[i] = table[2 * i];
    sin[i] = table[2 * i + 1];
  }
  put(at[0], pos, B * Tq);
  put(at[1], cos, cos.length);
  put(at[2], sin, sin.length);
}

const usable = (p: Shape, arrays: NumArray[], ints: number) =>
  wasm !== null &&
  p.dh % 8 === 0 &&
  arrays.every((a, i) => i === ints || a instanceof Float32Array);

export function ropeForwardFast(p: Shape, arrays: NumArray[]): boolean {
  if (!wasm || !usable(p, arrays, 1)) return false;
  const [qkv, start, table, q, kc, vc] = arrays;
  const { B, Tq, H, dh, cap, qOffset, tableLen } = p;
  const half = tableLen * (dh / 2);
  // The caches keep their other columns: copied both ways when they are not on the heap.
  const io = bind(
    [
      { array: qkv, n: B * Tq * 3 * H * dh, use: IN },
      { array: q, n: B * H * Tq * dh, use: OUT },
      { array: kc, n: B * H * cap * dh, use: INOUT },
      { array: vc, n: B * H * cap * dh, use: INOUT },
    ],
    B * Tq,
    half,
    half,
  );
  layout(p, start, table, io.scratch, qOffset);
  wasm.forward(io.at[0], ...io.scratch, io.at[1], io.at[2], io.at[3], B, Tq, H, dh, cap, qOffset);
  io.done();
  return true;
}

export function ropeBackwardFast(p: Shape, arrays: NumArray[]): boolean {
  if (!wasm || !usable(p, arrays, 3)) return false;
  const [dq, dk, dv, start, table, dqkv] = arrays;
  const { B, Tq, H, dh, tableLen } = p;
  const n = B * H * Tq * dh;
  const half = tableLen * (dh / 2);
  const io = bind(
    [
      { array: dq, n, use: IN },
      { array: dk, n, use: IN },
      { array: dv, n, use: IN },
      { array: dqkv, n: 3 * n, use: OUT },
    ],
    B * Tq,
    half,
    half,
  );
  // The backward is training's: query rows from column 0.
  layout(p, start, table, io.scratch, 0);
  wasm.backward(io.at[0], io.at[1], io.at[2], ...io.scratch, io.at[3], B, Tq, H, dh);
  io.done();
  return true;
}
