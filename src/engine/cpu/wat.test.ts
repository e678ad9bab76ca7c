import { describe, expect, it } from 'vitest';
import { attentionModuleText } from './fast/attention.ts';
import { Constants, expV, vectorLoop } from './fast/simd-math.ts';
import { bind, f32View, instantiate } from './fast/heap.ts';
import { assembleWat, WatError } from './wat.ts';

describe('the WAT assembler', () => {
  it('assembles functions with locals, labels, constants and memory access', () => {
    const wasm = instantiate<{ sum(at: number, n: number): number; inf(): number }>(`
      (func $sum (param $at i32) (param $n i32) (result f32) (local $s f32) (local $end i32)
        local.get $at local.get $n i32.const 2 i32.shl i32.add local.set $end
        block $done loop $next
          local.get $at local.get $end i32.ge_u br_if $done
          local.get $s local.get $at f32.load f32.add local.set $s
          local.get $at i32.const 4 i32.add local.set $at
          br $next
        end end
        local.get $s)
      (func $inf (result f32) f32.const -inf)`);
    expect(wasm).not.toBeNull();
    const [at] = bind([], 5).scratch;
    f32View().set([1, 2, 3, 4, 5.5], at >> 2);
    expect(wasm!.sum(at, 5)).toBe(15.5);
    expect(wasm!.inf()).toBe(-Infinity);
  });

  it('names what is wrong in a bad text', () => {
    const bad = (text: string, message: RegExp) => expect(() => assembleWat(text)).toThrow(message);
    bad('(func $f i32.frobnicate)', /unknown instruction "i32.frobnicate"/);
    bad('(func $f local.get $x)', /unknown local \$x/);
    bad('(func $f block $a br $b end)', /unknown label \$b/);
    bad('(func $f block)', /left open/);
    bad('(func $f (param $a f64))', /unknown type f64/);
    bad('(func (param $a i32))', /needs a \$name/);
    expect(() => assembleWat('(func $f end)')).toThrow(WatError);
  });
});

describe('SIMD exp', () => {
  it('is within a few ulps of e^x over the range the kernels use', () => {
    const c = new Constants();
    const body = vectorLoop(
      '$x',
      '$end',
      ['$x', '$y'],
      `local.get $x v128.load local.set $v ${expV(c, '$v', '$v', '$k', '$r')}
      local.get $y local.get $v v128.store`,
    );
    const wasm = instantiate<{ exp(x: number, y: number, n: number): void }>(`
      (func $exp (param $x i32) (param $y i32) (param $n i32) (local $end i32) (local $v v128)
        (local $k v128) (local $r v128) ${c.locals()}
        ${c.init()}
        local.get $x local.get $n i32.const 2 i32.shl i32.add local.set $end
        ${body})`);
    expect(wasm).not.toBeNull();
    const n = 4000;
    const xs = Float32Array.from({ length: n }, (_, i) => -80 + (160 * i) / n);
    const [x, y] = bind([], n, n).scratch;
    f32View().set(xs, x >> 2);
    wasm!.exp(x, y, n);
    const ys = f32View().slice(y >> 2, (y >> 2) + n);
    let worst = 0;
    for (let i = 0; i < n; i++) {
      if (xs[i] > 88) continue;
      worst = Math.max(worst, Math.abs(ys[i] - Math.exp(xs[i])) / Math.exp(xs[i]));
    }
    expect(worst).toBeLessThan(4e-7);
  });
});

describe('attention kernels without relaxed SIMD', () => {
  it('assemble with a separate multiply and add where fused multiply-add is missing', () => {
    const plain = attentionModuleText(4, false);
    expect(plain).not.toContain('relaxed');
    expect(WebAssembly.validate(assembleWat(plain))).toBe(true);
    expect(attentionModuleText(4, true)).toContain('f32x4.relaxed_madd');
  });
});
