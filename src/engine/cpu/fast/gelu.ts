// GELU (tanh form) four lanes at a time: the fast CPU path of gelu.forward and gelu.backward.
import type { NumArray } from '../../backend.ts';
import { Constants, expV, vectorLoop } from './simd-math.ts';
import { IN, INOUT, OUT, bind, instantiate } from './heap.ts';
import { parallel, splitRange } from '../threads/thread-pool.ts';

const C1 = Math.sqrt(2 / Math.PI);
const C2 = 0.044715;

/** t = tanh(c1·(x + c2·x³)), the inner value clamped to ±15 as in the twin; $e $k $r scratch. */
const tanhOfInner = (c: Constants, x: string, t: string) => `
    local.get ${x} local.get ${x} f32x4.mul local.get ${x} f32x4.mul ${c.get(C2)} f32x4.mul
    local.get ${x} f32x4.add ${c.get(C1)} f32x4.mul
    ${c.get(-15)} f32x4.pmax ${c.get(15)} f32x4.pmin
    ${c.get(-2)} f32x4.mul local.set $e
    ${expV(c, '$e', '$e', '$k', '$r')}
    ${c.get(1)} local.get $e f32x4.sub ${c.get(1)} local.get $e f32x4.add f32x4.div
    local.set ${t}`;

function forward(): string {
  const c = new Constants();
  const loop = vectorLoop(
    '$x',
    '$end',
    ['$x', '$y'],
    `local.get $x v128.load local.set $v
    ${tanhOfInner(c, '$v', '$t')}
    local.get $y
    local.get $v ${c.get(0.5)} f32x4.mul ${c.get(1)} local.get $t f32x4.add f32x4.mul
    v128.store`,
  );
  return `(func $forward (param $x i32) (param $y i32) (param $n i32)
    (local $end i32) (local $v v128) (local $t v128) (local $e v128) (local $k v128)
    (local $r v128) ${c.locals()}
    ${c.init()}
    local.get $x local.get $n i32.const 2 i32.shl i32.add local.set $end
    ${loop})`;
}

function backward(): string {
  const c = new Constants();
  const loop = vectorLoop(
    '$x',
    '$end',
    ['$x', '$dy', '$dx'],
    `local.get $x v128.load local.set $v
    ${tanhOfInner(c, '$v', '$t')}
    ;; 0.5(1 + t) + 0.5·x·(1 − t²)·c1·(1 + 3·c2·x²)
    ${c.get(1)} local.get $t f32x4.add ${c.get(0.5)} f32x4.mul
    ${c.get(1)} local.get $t local.get $t f32x4.mul f32x4.sub
    local.get $v f32x4.mul ${c.get(0.5 * C1)} f32x4.mul
    local.get $v local.get $v f32x4.mul ${c.get(3 * C2)} f32x4.mul ${c.get(1)} f32x4.add
    f32x4.mul f32x4.add
    local.get $dy v128.load f32x4.mul local.set $g
    local.get $acc if
      local.get $g local.get $dx v128.load f32x4.add local.set $g
    end
    local.get $dx local.get $g v128.store`,
  );
  return `(func $backward (param $x i32) (param $dy i32) (param $dx i32) (param $n i32)
    (param $acc i32)
    (local $end i32) (local $v v128) (local $t v128) (local $e v128) (local $k v128)
    (local $r v128) (local $g v128) ${c.locals()}
    ${c.init()}
    local.get $x local.get $n i32.const 2 i32.shl i32.add local.set $end
    ${loop})`;
}

const wasm = instantiate<{
  forward(x: number, y: number, n: number): void;
  backward(x: number, dy: number, dx: number, n: number, acc: number): void;
}>(forward() + backward());

/** Whole vectors of n elements for the pool's threads: an element costs about 8 multiply-adds. */
const pieces = (n: number) => splitRange(n, 4, 8 * n);

/** y = gelu(x) for n elements; false (nothing written) where SIMD is missing. */
export function geluForwardFast(n: number, x: NumArray, y: NumArray): boolean {
  if (!wasm || !(x instanceof Float32Array && y instanceof Float32Array)) return false;
  const io = bind([
    { array: x, n, use: IN },
    { array: y, n, use: OUT },
  ]);
  const [xAt, yAt] = io.at;
  parallel(
    wasm.forward,
    pieces(n).map(([i, m]) => [xAt + 4 * i, yAt + 4 * i, m]),
  );
  io.done();
  return true;
}

/** dx = dy·gelu'(x) (or dx += that); false (nothing written) where SIMD is missing. */
export function geluBackwardFast(
  n: number,
  accumulate: boolean,
  x: NumArray,
  dy: NumArray,
  dx: NumArray,
): boolean {
  const f32 = x instanceof Float32Array && dy instanceof Float32Array && dx instanceof Float32Array;
  if (!wasm || !f32) return false;
  const io = bind([
    { array: x, n, use: IN },
    { array: dy, n, use: IN },
    { array: dx, n, use: accumulate ? INOUT : OUT },
  ]);
  const [xAt, dyAt, dxAt] = io.at;
  parallel(
    wasm.backward,
    pieces(n).map(([i, m]) => [xAt + 4 * i, dyAt + 4 * i, dxAt + 4 * i, m, Number(accumulate)]),
  );
  io.done();
  return true;
}
