import { TaskError } from '../errors.ts';
import { LIST_WIDTH, OP_LETTERS, OPS, type List } from './ops.ts';

/**
 * Exhaustive search over every program up to a length, used to keep only fair problems. A list
 * is coded as one integer (codes of length-k lists start at (10^k − 1)/9), each op's effect on a
 * code is memoised in a table, and programs that take all inputs to the same lists are merged,
 * so the search visits distinct behaviours (~10^4 at length 5) rather than 10^L strings.
 */
const OFFSET = [0, 1, 11, 111, 1111, 11111, 111111];
const CODES = OFFSET[LIST_WIDTH + 1];
const ERROR = -1; // sticky: a program that failed on an input stays failed
const UNKNOWN = -2;

const tables = new Map<string, Int32Array>();

function encodeList(xs: List): number {
  let v = 0;
  for (const x of xs) v = v * 10 + x;
  return OFFSET[xs.length] + v;
}

function decodeList(code: number): number[] {
  let k = 0;
  while (k < LIST_WIDTH && code >= OFFSET[k + 1]) k++;
  const out = new Array<number>(k);
  let v = code - OFFSET[k];
  for (let i = k - 1; i >= 0; i--) {
    out[i] = v % 10;
    v = Math.floor(v / 10);
  }
  return out;
}

function tableFor(op: string): Int32Array {
  let table = tables.get(op);
  if (!table) {
    table = new Int32Array(CODES).fill(UNKNOWN);
    tables.set(op, table);
  }
  return table;
}

function step(op: string, table: Int32Array, code: number): number {
  if (code === ERROR) return ERROR;
  let next = table[code];
  if (next === UNKNOWN) {
    const r = OPS[op].apply(decodeList(code));
    next = r.ok ? encodeList(r.list) : ERROR;
    table[code] = next;
  }
  return next;
}

function run(program: string, xs: List): number {
  let c = encodeList(xs);
  for (const op of program) c = step(op, tableFor(op), c);
  return c;
}

export type Judgement =
  | { readonly ok: true; readonly references: string[] }
  /**
   * `witness` shows why: a shorter program that fits every test (`shorter`); a program no longer
   * than the candidate that fits the shown examples but not the hidden tests (`ambiguous`); the
   * candidate itself, which fails on an input (`fails`).
   */
  | {
      readonly ok: false;
      readonly reason: 'shorter' | 'ambiguous' | 'fails';
      readonly witness: string;
    };

const MAX_REFERENCES = 8;
/** Three list codes (+1, so ERROR packs too) fit exactly in one double: 3 × 17 bits. */
const PACK = 2 ** 17;

function pack(codes: readonly number[], from: number, to: number): number {
  let k = 0;
  for (let i = to - 1; i >= from; i--) k = k * PACK + codes[i] + 1;
  return k;
}

/**
 * Every behaviour (outputs on all inputs) of every program of at most `maxDepth` ops, over all
 * ops, on fixed inputs of which the first `shown` are the examples. Built once, then judges any
 * number of candidate programs in microseconds.
 */
export class ProgramSpace {
  private readonly outputs: number[][] = [];
  private readonly depth: number[] = [];
  private readonly hiddenKey: number[] = [];
  /** Per behaviour, (parent, op index) pairs of the programs one op shorter that lead to it. */
  private readonly edges: number[][] = [];
  /** Packed example outputs → the behaviours with them. */
  private readonly byShown = new Map<number, number[]>();

  constructor(
    private readonly inputs: readonly List[],
    private readonly shown: number,
    readonly maxDepth: number,
  ) {
    if (shown > 3 || inputs.length - shown > 3 || shown < 1) {
      throw new TaskError(
        `ProgramSpace packs 1..3 shown and 0..3 hidden inputs, got ${shown}, ${inputs.length - shown}`,
      );
    }
    const n = inputs.length;
    const start = inputs.map(encodeList);
    let layer = [this.add(start, 0, pack(start, 0, shown), pack(start, shown, n))];
    for (let depth = 1; depth <= maxDepth; depth++) {
      const next: number[] = [];
      for (const parent of layer) {
        const from = this.outputs[parent];
        for (let o = 0; o < OP_LETTERS.length; o++) {
          const op = OP_LETTERS[o];
          const table = tableFor(op);
          const out = new Array<number>(n);
          for (let i = 0; i < n; i++) out[i] = step(op, table, from[i]);
          const sk = pack(out, 0, shown);
          const hk = pack(out, shown, n);
          let id = this.find(sk, hk);
          if (id < 0) {
            id = this.add(out, depth, sk, hk);
            next.push(id);
          }
          if (this.depth[id] === depth) this.edges[id].push(parent, o);
        }
      }
      layer = next;
    }
  }

  /**
   * Whether `program` (at most maxDepth ops) makes a fair problem: no shorter program gives the
   * same outputs on every input, and every program no longer than it that fits the shown examples
   * also fits the hidden tests — so the shortest programs consistent with the examples are exactly
   * the correct ones. On success, up to 8 equally short correct programs, `program` first.
   */
  judge(program: string): Judgement {
    if (program.length > this.maxDepth) {
      throw new TaskError(`ProgramSpace: "${program}" is longer than ${this.maxDepth} ops`);
    }
    const out = this.inputs.map((xs) => run(program, xs));
    if (out.includes(ERROR)) return { ok: false, reason: 'fails', witness: program };
    const sk = pack(out, 0, this.shown);
    const id = this.find(sk, pack(out, this.shown, out.length)); // every program ≤ maxDepth is here
    if (this.depth[id] < program.length) {
      return { ok: false, reason: 'shorter', witness: this.programs(id, 1)[0] };
    }
    const rival = this.byShown.get(sk)?.find((b) => b !== id);
    if (rival !== undefined) {
      return { ok: false, reason: 'ambiguous', witness: this.programs(rival, 1)[0] };
    }
    const others = this.programs(id, MAX_REFERENCES).filter((p) => p !== program);
    return { ok: true, references: [program, ...others].slice(0, MAX_REFERENCES) };
  }

  private find(shownKey: number, hiddenKey: number): number {
    const same = this.byShown.get(shownKey);
    return same?.find((b) => this.hiddenKey[b] === hiddenKey) ?? -1;
  }

  private add(out: number[], depth: number, shownKey: number, hiddenKey: number): number {
    const id = this.outputs.length;
    this.outputs.push(out);
    this.depth.push(depth);
    this.hiddenKey.push(hiddenKey);
    this.edges.push([]);
    const same = this.byShown.get(shownKey);
    if (same) same.push(id);
    else this.byShown.set(shownKey, [id]);
    return id;
  }

  /** Up to `limit` shortest programs with behaviour `id`. */
  private programs(id: number, limit: number): string[] {
    if (this.depth[id] === 0) return [''];
    const out: string[] = [];
    const e = this.edges[id];
    for (let i = 0; i < e.length && out.length < limit; i += 2) {
      for (const p of this.programs(e[i], limit - out.length)) out.push(p + OP_LETTERS[e[i + 1]]);
    }
    return out;
  }
}
