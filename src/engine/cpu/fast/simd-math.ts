// WAT snippets for lane-wise math, inlined by the kernels that use them (a call per vector would
// cost more than the math). Each takes the names of its input and output v128 locals and of the
// scratch locals it may clobber.

/**
 * The vector constants of one function, as locals set once before its loops: V8 builds a
 * v128.const afresh wherever it stands, which inside a loop costs more than the math.
 */
export class Constants {
  private readonly values: string[] = [];

  /** Pushes the f32 splat of x. */
  get(x: number): string {
    return this.local(`f32x4 ${x} ${x} ${x} ${x}`);
  }

  /** Pushes the i32 splat of x. */
  int(x: number): string {
    return this.local(`i32x4 ${x} ${x} ${x} ${x}`);
  }

  private local(value: string): string {
    let i = this.values.indexOf(value);
    if (i < 0) i = this.values.push(value) - 1;
    return `local.get $c${i}`;
  }

  /** The local declarations, for the function's header. */
  locals(): string {
    return this.values.map((_, i) => `(local $c${i} v128)`).join(' ');
  }

  /** Sets every constant; goes before the first loop. */
  init(): string {
    return this.values.map((v, i) => `v128.const ${v} local.set $c${i}`).join('\n');
  }
}

/**
 * out = e^x in f32 for x in [−87, 88] (clamped there): x = n·ln2 + r with n = nearest(x/ln2),
 * e^r by its Taylor polynomial to r⁶ (|r| ≤ ln2/2, error below an ulp), 2^n built in the exponent
 * bits. n is rounded by adding 1.5·2²³, whose float keeps n in its low mantissa bits: no
 * conversion instruction. pmin/pmax are single instructions where min/max are not. `n` and `r`
 * are scratch.
 */
export function expV(c: Constants, x: string, out: string, n: string, r: string): string {
  const LN2_HI = 0.693145751953125; // ln 2 to 16 bits: n·LN2_HI is exact in f32
  const MAGIC = 12582912; // 1.5·2²³
  return `
    local.get ${x} ${c.get(-87)} f32x4.pmax ${c.get(88)} f32x4.pmin local.set ${r}
    local.get ${r} ${c.get(Math.LOG2E)} f32x4.mul ${c.get(MAGIC)} f32x4.add local.set ${n}
    local.get ${r}
    local.get ${n} ${c.get(MAGIC)} f32x4.sub ${c.get(LN2_HI)} f32x4.mul f32x4.sub
    local.get ${n} ${c.get(MAGIC)} f32x4.sub ${c.get(Math.LN2 - LN2_HI)} f32x4.mul f32x4.sub
    local.set ${r}
    ${c.get(1 / 720)}
    local.get ${r} f32x4.mul ${c.get(1 / 120)} f32x4.add
    local.get ${r} f32x4.mul ${c.get(1 / 24)} f32x4.add
    local.get ${r} f32x4.mul ${c.get(1 / 6)} f32x4.add
    local.get ${r} f32x4.mul ${c.get(0.5)} f32x4.add
    local.get ${r} f32x4.mul ${c.get(1)} f32x4.add
    local.get ${r} f32x4.mul ${c.get(1)} f32x4.add
    ;; 2^n: the magic float's bits minus its own, plus the bias, into the exponent field
    local.get ${n} ${c.int(0x4b400000 - 127)} i32x4.sub
    i32.const 23 i32x4.shl
    f32x4.mul
    local.set ${out}`;
}

/**
 * A counted loop over vectors: `ptrs` advance by 16 bytes a pass until the first reaches `end`.
 */
export function vectorLoop(first: string, end: string, ptrs: string[], body: string): string {
  return `
    block $done loop $next
      local.get ${first} local.get ${end} i32.ge_u br_if $done
      ${body}
      ${ptrs.map((p) => `local.get ${p} i32.const 16 i32.add local.set ${p}`).join('\n')}
      br $next
    end end`;
}
