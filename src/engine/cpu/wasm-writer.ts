/**
 * A minimal WebAssembly binary writer: one module with an exported memory and one exported
 * function, assembled at runtime. It lets the CPU backend ship SIMD kernels with no toolchain and
 * no build output; it knows only the few instructions those kernels use.
 */

export const I32 = 0x7f;
export const V128 = 0x7b;

/** Core opcodes. */
export const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  brIf: 0x0d,
  select: 0x1b,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Const: 0x41,
  i32Eqz: 0x45,
  i32LtU: 0x49,
  i32GeU: 0x4f,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
  i32And: 0x71,
  i32Shl: 0x74,
} as const;

/** SIMD opcodes, written after the 0xfd prefix. */
export const simd = {
  load: 0x00,
  load32Splat: 0x09,
  store: 0x0b,
  const: 0x0c,
  f32x4Add: 0xe4,
  f32x4Mul: 0xe6,
  /** Relaxed SIMD: a·b + c, fused where the CPU has FMA. */
  f32x4RelaxedMadd: 0x105,
} as const;

const SIMD_PREFIX = 0xfd;
const EMPTY_BLOCK = 0x40;

export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    const done = (n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const name = (s: string) => [...uleb(s.length), ...new TextEncoder().encode(s)];
const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];

/** One function under construction: parameters, locals, and a body, one instruction per call. */
export class Func {
  readonly bytes: number[] = [];
  private readonly locals: number[] = [];

  constructor(
    readonly name: string,
    readonly params: readonly number[],
  ) {}

  /** A new local of `type`; returns its index. */
  local(type: number): number {
    this.locals.push(type);
    return this.params.length + this.locals.length - 1;
  }

  get localTypes(): readonly number[] {
    return this.locals;
  }

  private put(...b: number[]): this {
    for (const x of b) this.bytes.push(x);
    return this;
  }

  op(code: number): this {
    return this.put(code);
  }
  i32(value: number): this {
    return this.put(op.i32Const, ...sleb(value));
  }
  get(local: number): this {
    return this.put(op.localGet, ...uleb(local));
  }
  set(local: number): this {
    return this.put(op.localSet, ...uleb(local));
  }
  tee(local: number): this {
    return this.put(op.localTee, ...uleb(local));
  }
  /** `loop` … `br_if 0` … `end`: the body repeats while it leaves a non-zero i32. */
  doWhile(body: () => void): this {
    this.put(op.loop, EMPTY_BLOCK);
    body();
    return this.put(op.brIf, 0, op.end);
  }
  /** A loop that runs while `cond` leaves a non-zero i32, checked before each pass. */
  whileLoop(cond: () => void, body: () => void): this {
    this.put(op.block, EMPTY_BLOCK);
    cond();
    this.put(op.i32Eqz, op.brIf, 0);
    this.doWhile(() => {
      body();
      cond();
    });
    return this.put(op.end);
  }
  /** `if` … (`else` …) `end` on the i32 that `cond` leaves. */
  if(cond: () => void, then: () => void, otherwise?: () => void): this {
    cond();
    this.put(op.if, EMPTY_BLOCK);
    then();
    if (otherwise) {
      this.put(op.else);
      otherwise();
    }
    return this.put(op.end);
  }
  simd(code: number): this {
    return this.put(SIMD_PREFIX, ...uleb(code));
  }
  /** A SIMD load or store at the address on the stack plus `offset`, aligned as its width. */
  simdMem(code: (typeof simd)['load' | 'load32Splat' | 'store'], offset: number): this {
    const alignLog2 = code === simd.load32Splat ? 2 : 4;
    return this.put(SIMD_PREFIX, ...uleb(code), alignLog2, ...uleb(offset));
  }
  zeroV128(): this {
    return this.simd(simd.const).put(...new Array<number>(16).fill(0));
  }
}

/** One function of a module: its exported name, signature, locals and body (without `end`). */
export interface FuncBody {
  name: string;
  params: readonly number[];
  results: readonly number[];
  localTypes: readonly number[];
  body: readonly number[];
}

/** Local declarations as the code section wants them: runs of [count, type]. */
function localRuns(types: readonly number[]): number[][] {
  const runs: number[][] = [];
  for (const t of types) {
    const last = runs.at(-1);
    if (last && last[1] === t) last[0]++;
    else runs.push([1, t]);
  }
  return runs.map(([n, t]) => [...uleb(n), t]);
}

/** A module of these functions, each exported by name, over the memory imported as `env.memory`. */
export function encodeModule(funcs: readonly FuncBody[]): Uint8Array<ArrayBuffer> {
  const limits = [0x00, 1]; // at least one page, no maximum
  const exports = funcs.map((f, i) => [...name(f.name), 0x00, ...uleb(i)]);
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
    ...section(
      1,
      vec(
        funcs.map((f) => [
          0x60,
          ...vec(f.params.map((t) => [t])),
          ...vec(f.results.map((t) => [t])),
        ]),
      ),
    ),
    ...memoryImport(limits),
    ...section(3, vec(funcs.map((_, i) => uleb(i)))), // function i has type i
    ...section(7, vec(exports)),
    ...section(
      10,
      vec(
        funcs.map((f) => {
          const code = [...vec(localRuns(f.localTypes)), ...f.body, op.end];
          return [...uleb(code.length), ...code];
        }),
      ),
    ),
  ];
  return new Uint8Array(bytes);
}

function memoryImport(limits: readonly number[]): number[] {
  return section(2, vec([[...name('env'), ...name('memory'), 0x02, ...limits]]));
}

/** Pages of a shared memory's maximum: 4 GiB, the most a 32-bit memory can address. */
export const SHARED_MAX_PAGES = 65536;

/**
 * The same module importing a shared memory (limits: 1 page, SHARED_MAX_PAGES at most), which is
 * what a memory that the pool's threads share must be imported as. Sections are walked by their
 * sizes; only the import section, which encodeModule writes with this one import, is replaced.
 */
export function withSharedMemory(bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const out: number[] = [...bytes.subarray(0, 8)];
  let i = 8;
  while (i < bytes.length) {
    const id = bytes[i];
    let size = 0;
    let shift = 0;
    let j = i + 1;
    for (;;) {
      const b = bytes[j++];
      size |= (b & 0x7f) << shift;
      shift += 7;
      if (!(b & 0x80)) break;
    }
    const end = j + size;
    if (id === 2) out.push(...memoryImport([0x03, 1, ...uleb(SHARED_MAX_PAGES)]));
    else out.push(...bytes.subarray(i, end));
    i = end;
  }
  return new Uint8Array(out);
}

/** A module of the function (no results) over the memory imported as `env.memory`. */
export function assemble(fn: Func): Uint8Array<ArrayBuffer> {
  return encodeModule([
    { name: fn.name, params: fn.params, results: [], localTypes: fn.localTypes, body: fn.bytes },
  ]);
}
