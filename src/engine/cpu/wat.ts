/**
 * An assembler for the small subset of the WebAssembly text format the CPU backend's SIMD
 * kernels are written in: functions over i32, f32 and v128 locals, flat instructions with named
 * locals and labels, and a memory imported as `env.memory`, so every kernel works in place on the
 * heap the CPU backend's tensors live in. It lets the kernels read as WAT, with no toolchain and no
 * build output.
 *
 *   (func $scale (param $p i32) (param $n i32) (param $s f32)
 *     (local $i i32)
 *     block $done loop $next
 *       local.get $i local.get $n i32.ge_u br_if $done
 *       …
 *       br $next
 *     end end)
 *
 * Every function is exported under its name without the `$`.
 */
import { encodeModule, sleb, uleb } from './wasm-writer.ts';

const TYPES: Record<string, number> = { i32: 0x7f, f32: 0x7d, v128: 0x7b };

type Imm = 'none' | 'local' | 'label' | 'i32' | 'f32' | 'mem' | 'lane' | 'v128' | 'block';

/** name → [prefix (0 for none), opcode, immediate]. */
const OPS: Record<string, [number, number, Imm]> = {
  block: [0, 0x02, 'block'],
  loop: [0, 0x03, 'block'],
  if: [0, 0x04, 'block'],
  else: [0, 0x05, 'none'],
  end: [0, 0x0b, 'none'],
  br: [0, 0x0c, 'label'],
  br_if: [0, 0x0d, 'label'],
  return: [0, 0x0f, 'none'],
  drop: [0, 0x1a, 'none'],
  select: [0, 0x1b, 'none'],
  'local.get': [0, 0x20, 'local'],
  'local.set': [0, 0x21, 'local'],
  'local.tee': [0, 0x22, 'local'],
  'i32.load': [0, 0x28, 'mem'],
  'f32.load': [0, 0x2a, 'mem'],
  'i32.store': [0, 0x36, 'mem'],
  'f32.store': [0, 0x38, 'mem'],
  'i32.const': [0, 0x41, 'i32'],
  'f32.const': [0, 0x43, 'f32'],
  'i32.eqz': [0, 0x45, 'none'],
  'i32.eq': [0, 0x46, 'none'],
  'i32.ne': [0, 0x47, 'none'],
  'i32.lt_s': [0, 0x48, 'none'],
  'i32.lt_u': [0, 0x49, 'none'],
  'i32.gt_s': [0, 0x4a, 'none'],
  'i32.gt_u': [0, 0x4b, 'none'],
  'i32.le_s': [0, 0x4c, 'none'],
  'i32.le_u': [0, 0x4d, 'none'],
  'i32.ge_s': [0, 0x4e, 'none'],
  'i32.ge_u': [0, 0x4f, 'none'],
  'f32.eq': [0, 0x5b, 'none'],
  'f32.ne': [0, 0x5c, 'none'],
  'f32.lt': [0, 0x5d, 'none'],
  'f32.gt': [0, 0x5e, 'none'],
  'f32.le': [0, 0x5f, 'none'],
  'f32.ge': [0, 0x60, 'none'],
  'i32.add': [0, 0x6a, 'none'],
  'i32.sub': [0, 0x6b, 'none'],
  'i32.mul': [0, 0x6c, 'none'],
  'i32.and': [0, 0x71, 'none'],
  'i32.or': [0, 0x72, 'none'],
  'i32.shl': [0, 0x74, 'none'],
  'i32.shr_s': [0, 0x75, 'none'],
  'i32.shr_u': [0, 0x76, 'none'],
  'f32.abs': [0, 0x8b, 'none'],
  'f32.neg': [0, 0x8c, 'none'],
  'f32.sqrt': [0, 0x91, 'none'],
  'f32.add': [0, 0x92, 'none'],
  'f32.sub': [0, 0x93, 'none'],
  'f32.mul': [0, 0x94, 'none'],
  'f32.div': [0, 0x95, 'none'],
  'f32.min': [0, 0x96, 'none'],
  'f32.max': [0, 0x97, 'none'],
  'f32.convert_i32_s': [0, 0xb2, 'none'],
  'f32.convert_i32_u': [0, 0xb3, 'none'],
  'v128.load': [0xfd, 0x00, 'mem'],
  'v128.load32_splat': [0xfd, 0x09, 'mem'],
  'v128.store': [0xfd, 0x0b, 'mem'],
  'v128.const': [0xfd, 0x0c, 'v128'],
  'i32x4.splat': [0xfd, 0x11, 'none'],
  'f32x4.splat': [0xfd, 0x13, 'none'],
  'f32x4.extract_lane': [0xfd, 0x1f, 'lane'],
  'f32x4.replace_lane': [0xfd, 0x20, 'lane'],
  'f32x4.eq': [0xfd, 0x41, 'none'],
  'f32x4.ne': [0xfd, 0x42, 'none'],
  'f32x4.lt': [0xfd, 0x43, 'none'],
  'f32x4.gt': [0xfd, 0x44, 'none'],
  'f32x4.le': [0xfd, 0x45, 'none'],
  'f32x4.ge': [0xfd, 0x46, 'none'],
  'v128.not': [0xfd, 0x4d, 'none'],
  'v128.and': [0xfd, 0x4e, 'none'],
  'v128.andnot': [0xfd, 0x4f, 'none'],
  'v128.or': [0xfd, 0x50, 'none'],
  'v128.xor': [0xfd, 0x51, 'none'],
  'v128.bitselect': [0xfd, 0x52, 'none'],
  'f32x4.nearest': [0xfd, 0x6a, 'none'],
  'i32x4.shl': [0xfd, 0xab, 'none'],
  'i32x4.add': [0xfd, 0xae, 'none'],
  'i32x4.sub': [0xfd, 0xb1, 'none'],
  'f32x4.abs': [0xfd, 0xe0, 'none'],
  'f32x4.neg': [0xfd, 0xe1, 'none'],
  'f32x4.sqrt': [0xfd, 0xe3, 'none'],
  'f32x4.add': [0xfd, 0xe4, 'none'],
  'f32x4.sub': [0xfd, 0xe5, 'none'],
  'f32x4.mul': [0xfd, 0xe6, 'none'],
  'f32x4.div': [0xfd, 0xe7, 'none'],
  'f32x4.min': [0xfd, 0xe8, 'none'],
  'f32x4.max': [0xfd, 0xe9, 'none'],
  'f32x4.pmin': [0xfd, 0xea, 'none'],
  'f32x4.pmax': [0xfd, 0xeb, 'none'],
  'i32x4.trunc_sat_f32x4_s': [0xfd, 0xf8, 'none'],
  'f32x4.convert_i32x4_s': [0xfd, 0xfa, 'none'],
  'f32x4.relaxed_madd': [0xfd, 0x105, 'none'],
};

/** Natural alignment (log2 bytes) of each memory instruction. */
const ALIGN: Record<string, number> = {
  'i32.load': 2,
  'f32.load': 2,
  'i32.store': 2,
  'f32.store': 2,
  'v128.load': 4,
  'v128.load32_splat': 2,
  'v128.store': 4,
};

export class WatError extends Error {
  override name = 'WatError';
}

function tokens(text: string): string[] {
  const stripped = text.replace(/\(;[\s\S]*?;\)/g, ' ').replace(/;;[^\n]*/g, ' ');
  return stripped.match(/\(|\)|[^\s()]+/g) ?? [];
}

interface FuncText {
  name: string;
  params: number[];
  results: number[];
  locals: Map<string, number>;
  localTypes: number[];
  body: number[];
}

/** An f32 immediate: a number, or inf, -inf, nan as in the text format. */
function f32Bytes(text: string | number): number[] {
  const special: Record<string, number> = { inf: Infinity, '-inf': -Infinity, nan: NaN };
  const x = typeof text === 'number' ? text : (special[text] ?? Number(text));
  return [...new Uint8Array(new Float32Array([x]).buffer)];
}

/** Reads one `(func …)`; `at` points after its `func`. Returns the function and where it ends. */
function parseFunc(t: string[], at: number): [FuncText, number] {
  const fn: FuncText = {
    name: '',
    params: [],
    results: [],
    locals: new Map(),
    localTypes: [],
    body: [],
  };
  let i = at;
  if (t[i]?.startsWith('$')) fn.name = t[i++].slice(1);
  else throw new WatError('a func needs a $name');
  const declare = (kind: string, name: string, type: string) => {
    const code = TYPES[type];
    if (code === undefined) throw new WatError(`${fn.name}: unknown type ${type}`);
    if (kind === 'result') return void fn.results.push(code);
    if (fn.locals.has(name)) throw new WatError(`${fn.name}: ${name} declared twice`);
    fn.locals.set(name, fn.params.length + fn.localTypes.length);
    (kind === 'param' ? fn.params : fn.localTypes).push(code);
  };
  while (t[i] === '(' && ['param', 'result', 'local'].includes(t[i + 1])) {
    const kind = t[i + 1];
    if (kind === 'result') declare(kind, '', t[i + 2]);
    else declare(kind, t[i + 2], t[i + 3]);
    i += kind === 'result' ? 4 : 5;
    if (t[i - 1] !== ')') throw new WatError(`${fn.name}: malformed (${kind} …)`);
  }
  const labels: (string | null)[] = [];
  const out = fn.body;
  for (; t[i] !== ')'; i++) {
    const word = t[i];
    if (word === undefined) throw new WatError(`${fn.name}: unterminated func`);
    const spec = OPS[word];
    if (!spec) throw new WatError(`${fn.name}: unknown instruction ${JSON.stringify(word)}`);
    const [prefix, code, imm] = spec;
    if (prefix) out.push(prefix, ...uleb(code));
    else out.push(code);
    const next = () => {
      const w = t[++i];
      if (w === undefined || w === ')' || w === '(')
        throw new WatError(`${fn.name}: ${word} needs an operand`);
      return w;
    };
    switch (imm) {
      case 'block':
        labels.push(t[i + 1]?.startsWith('$') ? next() : null);
        out.push(0x40);
        break;
      case 'none':
        if (word === 'end') {
          if (labels.length === 0) throw new WatError(`${fn.name}: end without a block`);
          labels.pop();
        }
        break;
      case 'local': {
        const name = next();
        const index = fn.locals.get(name);
        if (index === undefined) throw new WatError(`${fn.name}: unknown local ${name}`);
        out.push(...uleb(index));
        break;
      }
      case 'label': {
        const name = next();
        const depth = labels.length - 1 - labels.lastIndexOf(name);
        if (depth >= labels.length) throw new WatError(`${fn.name}: unknown label ${name}`);
        out.push(...uleb(depth));
        break;
      }
      case 'i32':
        out.push(...sleb(Number(next()) | 0));
        break;
      case 'f32':
        out.push(...f32Bytes(next()));
        break;
      case 'lane':
        out.push(Number(next()));
        break;
      case 'mem': {
        let offset = 0;
        while (t[i + 1]?.startsWith('offset=')) offset = Number(next().slice(7));
        out.push(ALIGN[word], ...uleb(offset));
        break;
      }
      case 'v128': {
        const shape = next();
        if (shape === 'f32x4') for (let k = 0; k < 4; k++) out.push(...f32Bytes(next()));
        else if (shape === 'i32x4')
          for (let k = 0; k < 4; k++) {
            const v = new Int32Array([Number(next())]);
            out.push(...new Uint8Array(v.buffer));
          }
        else throw new WatError(`${fn.name}: v128.const takes f32x4 or i32x4, not ${shape}`);
        break;
      }
    }
  }
  if (labels.length) throw new WatError(`${fn.name}: ${labels.length} block(s) left open`);
  return [fn, i + 1];
}

/** The module of every `(func …)` in the text, each exported by name, memory from env.memory. */
export function assembleWat(text: string): Uint8Array<ArrayBuffer> {
  const t = tokens(text);
  const funcs: FuncText[] = [];
  let i = 0;
  if (t[0] === '(' && t[1] === 'module') i = 2;
  while (i < t.length && t[i] !== ')') {
    if (t[i] !== '(' || t[i + 1] !== 'func') throw new WatError(`expected (func, got ${t[i]}`);
    const [fn, end] = parseFunc(t, i + 2);
    funcs.push(fn);
    i = end;
  }
  return encodeModule(
    funcs.map((f) => ({
      name: f.name,
      params: f.params,
      results: f.results,
      localTypes: f.localTypes,
      body: f.body,
    })),
  );
}
