// RoPE four pairs at a time: the fast CPU path of rope.forward and rope.backward (head dimension
// a multiple of 8). Positions and the cos/sin columns are laid out in JS; the rotation runs in
// WebAssembly.
import type { NumArray } from '../../backend.ts';
import type { RopeShape as Shape } from '../../kernels/rope.ts';
import { IN, INOUT, OUT, bind, instantiate, put } from './heap.ts';

/**
 * The pair (x1, x2) rotated by the angle whose cos and sin are in $c and $s (by its negative with
 * `inverse`): x1·c − x2·s and x1·s + x2·c, left on the stack in that order.
 */
const rotate = (x1: string, x2: string, inverse: boolean) => `
    local.get ${x1} local.get $c f32x4.mul local.get ${x2} local.get $s f32x4.mul
    ${inverse ? 'f32x4.add' : 'f32x4.sub'}
    local.get ${x1} local.get $s f32x4.mul ${inverse ? 'f32x4.neg' : ''}
    local.get ${x2} local.get $c f32x4.mul f32x4.add`;

/** mem[base + off + 4i] and mem[base + off + 4(i + half)]: a pair of four lanes each. */
const lo = (base: string, off: string) =>
  `local.get ${base} local.get ${off} i32.add local.get $i i32.const 2 i32.shl i32.add`;
const hi = (base: string, off: string) =>
  `local.get ${base} local.get ${off} i32.add local.get $i local.get $half i32.add i32.const 2 i32.shl i32.add`;

/**
 * For every row (b, t) of the [B·Tq, 3·d] matrix at $rows, head h and four pairs from i:
 * $o = (b, h, t) in [B, H, Tq, dh] and $at = the q part's pair in the row (k is d further, v 2d),
 * both bytes, $c and $s the cos and sin of the row's position. `perHead` runs once per head.
 */
const overPairs = (perHead: string, body: string) => `
  local.get $dh i32.const 1 i32.shr_u local.set $half
  local.get $H local.get $dh i32.mul local.set $d
  block $bDone loop $bNext
    local.get $b local.get $B i32.ge_u br_if $bDone
    i32.const 0 local.set $t
    block $tDone loop $tNext
      local.get $t local.get $Tq i32.ge_u br_if $tDone
      local.get $pos local.get $b local.get $Tq i32.mul local.get $t i32.add i32.const 2 i32.shl
      i32.add i32.load local.get $half i32.mul i32.const 2 i32.shl local.set $cs
      local.get $rows local.get $b local.get $Tq i32.mul local.get $t i32.add local.get $d
      i32.const 12 i32.mul i32.mul i32.add local.set $row
      i32.const 0 local.set $h
      block $hDone loop $hNext
        local.get $h local.get $H i32.ge_u br_if $hDone
        local.get $b local.get $H i32.mul local.get $h i32.add local.get $Tq i32.mul
        local.get $t i32.add local.get $dh i32.mul i32.const 2 i32.shl local.set $o
        ${perHead}
        i32.const 0 local.set $i
        block $iDone loop $iNext
          local.get $i local.get $half i32.ge_u br_if $iDone
          local.get $cos local.get $cs i32.add local.get $i i32.const 2 i32.shl i32.add v128.load
          local.set $c
          local.get $sin local.get $cs i32.add local.get $i i32.const 2 i32.shl i32.add v128.load
          local.set $s
          local.get $row local.get $h local.get $dh i32.mul local.get $i i32.add i32.const 2
          i32.shl i32.add local.set $at
          ${body}
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
  end end`;

const LOCALS = `(local $b i32) (local $t i32) (local $h i32) (local $i i32) (local $half i32)
  (local $row i32) (local $o i32) (local $cs i32) (local $at i32) (local $d i32) (local $x1 v128)
  (local $x2 v128) (local $c v128) (local $s v128) (local $tmp v128) (local $kAt i32) (local $vAt i32)`;

/** The pair loaded from the addresses x1 and x2 leave, rotated and stored at storeLo, storeHi. */
const rotatePair = (x1: string, x2: string, inverse: boolean, storeLo: string, storeHi: string) => `
          ${x1} v128.load local.set $x1
          ${x2} v128.load local.set $x2
          ${rotate('$x1', '$x2', inverse)} local.set $tmp local.set $x1
          ${storeLo} local.get $x1 v128.store
          ${storeHi} local.get $tmp v128.store`;

const WAT = `
(func $forward (param $rows i32) (param $pos i32) (param $cos i32) (param $sin i32) (param $q i32)
  (param $k i32) (param $v i32) (param $B i32) (param $Tq i32) (param $H i32) (param $dh i32)
  (param $cap i32) (param $qOffset i32) ${LOCALS} (local $ko i32)
  ${overPairs(
    // k and v land in the caches at column qOffset + t
    `local.get $b local.get $H i32.mul local.get $h i32.add local.get $cap i32.mul
    local.get $qOffset i32.add local.get $t i32.add local.get $dh i32.mul i32.const 2 i32.shl
    local.set $ko`,
    `local.get $at local.get $d i32.const 2 i32.shl i32.add local.set $kAt
    local.get $kAt local.get $d i32.const 2 i32.shl i32.add local.set $vAt
    ${rotatePair('local.get $at', `local.get $at local.get $half i32.const 2 i32.shl i32.add`, false, lo('$q', '$o'), hi('$q', '$o'))}
    ${rotatePair('local.get $kAt', `local.get $kAt local.get $half i32.const 2 i32.shl i32.add`, false, lo('$k', '$ko'), hi('$k', '$ko'))}
    ${lo('$v', '$ko')} local.get $vAt v128.load v128.store
    ${hi('$v', '$ko')} local.get $vAt local.get $half i32.const 2 i32.shl i32.add v128.load v128.store`,
  )})

(func $backward (param $dqIn i32) (param $dkIn i32) (param $dv i32) (param $pos i32) (param $cos i32)
  (param $sin i32) (param $rows i32) (param $B i32) (param $Tq i32) (param $H i32) (param $dh i32)
  ${LOCALS}
  ${overPairs(
    '',
    `${rotatePair(lo('$dqIn', '$o'), hi('$dqIn', '$o'), true, 'local.get $at', 'local.get $at local.get $half i32.const 2 i32.shl i32.add')}
    local.get $at local.get $d i32.const 2 i32.shl i32.add local.set $kAt
    ${rotatePair(lo('$dkIn', '$o'), hi('$dkIn', '$o'), true, 'local.get $kAt', 'local.get $kAt local.get $half i32.const 2 i32.shl i32.add')}
    local.get $kAt local.get $d i32.const 2 i32.shl i32.add local.set $vAt
    local.get $vAt ${lo('$dv', '$o')} v128.load v128.store
    local.get $vAt local.get $half i32.const 2 i32.shl i32.add ${hi('$dv', '$o')} v128.load v128.store`,
  )})`;

const wasm = instantiate<{
  forward(...args: number[]): void;
  backward(...args: number[]): void;
}>(WAT);

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
