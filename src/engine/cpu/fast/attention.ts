// Causal attention four features at a time: the fast CPU path of attention.forward,
// backward_q and backward_kv. A module is assembled per head dimension (dh = 4·nv), so each
// row's vectors sit in locals. Scores, softmax and sums run in f32; the layouts are the twins'.
import type { NumArray } from '../../backend.ts';
import type { AttentionShape as Shape } from '../../kernels/attention.ts';
import { Constants, expV } from './simd-math.ts';
import { IN, OUT, bind, instantiate, zero } from './heap.ts';
import { parallel, splitRange } from '../threads/thread-pool.ts';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** A loop `for (var = from; var < to; var++)` over i32 locals or expressions. */
function forLoop(v: string, from: string, to: string, body: string): string {
  const label = v.slice(1);
  return `
    ${from} local.set ${v}
    block $${label}Done loop $${label}Next
      local.get ${v} ${to} i32.ge_u br_if $${label}Done
      ${body}
      local.get ${v} i32.const 1 i32.add local.set ${v}
      br $${label}Next
    end end`;
}

/** `body` for every (b, h), with $bh = b·H + h. */
const overHeads = (body: string) =>
  forLoop(
    '$b',
    'i32.const 0',
    'local.get $B',
    forLoop(
      '$h',
      'i32.const 0',
      'local.get $H',
      `local.get $b local.get $H i32.mul local.get $h i32.add local.set $bh
      ${body}`,
    ),
  );

/** The byte address of row (b, t) of head h in a [B, T, H·dh] matrix at `base`. */
const rowOfHead = (base: string, t: string, rowBytes: number) =>
  addr(
    base,
    `local.get $b local.get $T i32.mul local.get ${t} i32.add local.get $H i32.mul local.get $h i32.add`,
    rowBytes,
  );

/** Σ over the nv vectors of regs[k]·mem[ptr + 16k], as one f32 on the stack. */
const dotWith = (regs: string[], ptr: string) => `
    ${regs.map((r, k) => `local.get ${r} local.get ${ptr} v128.load offset=${16 * k} f32x4.mul`).join(' ')}
    ${regs
      .slice(1)
      .map(() => 'f32x4.add')
      .join(' ')}
    local.set $hv
    local.get $hv f32x4.extract_lane 0 local.get $hv f32x4.extract_lane 1 f32.add
    local.get $hv f32x4.extract_lane 2 f32.add local.get $hv f32x4.extract_lane 3 f32.add`;

/** regs[k] = mem[ptr + 16k]. */
const loadRow = (regs: string[], ptr: string) =>
  regs.map((r, k) => `local.get ${ptr} v128.load offset=${16 * k} local.set ${r}`).join('\n');

/** mem[ptr + 16k] = regs[k]·scale (scale a splat local, or none). */
const storeRow = (regs: string[], ptr: string, scale?: string) =>
  regs
    .map(
      (r, k) =>
        `local.get ${ptr} local.get ${r} ${scale ? `local.get ${scale} f32x4.mul` : ''} v128.store offset=${16 * k}`,
    )
    .join('\n');

/** regs[k] += splat(w)·mem[ptr + 16k], w an f32 local; fused with relaxed SIMD's madd. */
const axpyRow = (regs: string[], w: string, ptr: string, fused: boolean) => `
    local.get ${w} f32x4.splat local.set $wv
    ${regs
      .map((r, k) => {
        const wx = `local.get $wv local.get ${ptr} v128.load offset=${16 * k}`;
        const sum = fused
          ? `${wx} local.get ${r} f32x4.relaxed_madd`
          : `${wx} f32x4.mul local.get ${r} f32x4.add`;
        return `${sum} local.set ${r}`;
      })
      .join('\n')}`;

const zeroRow = (regs: string[]) =>
  regs.map((r) => `v128.const i32x4 0 0 0 0 local.set ${r}`).join('\n');

const decl = (regs: string[]) => regs.map((r) => `(local ${r} v128)`).join(' ');

/** Byte address base + index·scale, index an expression. */
const addr = (base: string, index: string, bytes: number | string) =>
  `local.get ${base} ${index} ${typeof bytes === 'number' ? `i32.const ${bytes}` : bytes} i32.mul i32.add`;

/** The module for dh = 4·nv; `fused` where the runtime has relaxed SIMD. */
export function attentionModuleText(nv: number, fused: boolean): string {
  const rowBytes = 16 * nv;
  const qv = range(nv).map((k) => `$q${k}`);
  const acc = range(nv).map((k) => `$a${k}`);
  const acc2 = range(nv).map((k) => `$b${k}`);
  const c = new Constants();
  const exps = `
    local.get $scores local.get $j i32.const 2 i32.shl i32.add local.tee $p v128.load
    local.get $mv f32x4.sub local.set $x
    ${expV(c, '$x', '$x', '$n', '$r')}
    local.get $p local.get $x v128.store`;
  const common = `(local $b i32) (local $h i32) (local $t i32) (local $j i32) (local $bh i32)
    (local $p i32) (local $p2 i32) (local $first i32) (local $last i32) (local $s f32) (local $m f32)
    (local $l f32) (local $w f32) (local $hv v128) (local $wv v128) (local $mv v128) (local $x v128)
    (local $n v128) (local $r v128)`;
  const forward = `
(func $forward (param $q i32) (param $kc i32) (param $vc i32) (param $start i32) (param $out i32)
  (param $probs i32) (param $scores i32) (param $B i32) (param $H i32) (param $Tq i32)
  (param $cap i32) (param $qOffset i32) (param $scale f32) (param $storeProbs i32)
  ${common} ${decl(qv)} ${decl(acc)} ${c.locals()}
  ${c.init()}
  ${forLoop(
    '$b',
    'i32.const 0',
    'local.get $B',
    `local.get $start local.get $b i32.const 2 i32.shl i32.add i32.load local.set $first
    ${forLoop(
      '$h',
      'i32.const 0',
      'local.get $H',
      `local.get $b local.get $H i32.mul local.get $h i32.add local.set $bh
      ${forLoop(
        '$t',
        'i32.const 0',
        'local.get $Tq',
        `local.get $qOffset local.get $t i32.add local.set $last
        ${addr('$q', 'local.get $bh local.get $Tq i32.mul local.get $t i32.add', rowBytes)}
        local.set $p
        ${loadRow(qv, '$p')}
        f32.const -inf local.set $m
        ${forLoop(
          '$j',
          'local.get $first',
          'local.get $last i32.const 1 i32.add',
          `${addr('$kc', 'local.get $bh local.get $cap i32.mul local.get $j i32.add', rowBytes)}
          local.set $p
          ${dotWith(qv, '$p')} local.get $scale f32.mul local.set $s
          local.get $scores local.get $j i32.const 2 i32.shl i32.add local.get $s f32.store
          local.get $m local.get $s f32.max local.set $m`,
        )}
        local.get $m f32x4.splat local.set $mv
        ;; e_j = exp(s_j − m), four at a time (lanes past $last are never read)
        local.get $first local.set $j
        block $expDone loop $expNext
          local.get $j local.get $last i32.gt_u br_if $expDone
          ${exps}
          local.get $j i32.const 4 i32.add local.set $j
          br $expNext
        end end
        f32.const 0 local.set $l
        ${forLoop(
          '$j',
          'local.get $first',
          'local.get $last i32.const 1 i32.add',
          `local.get $l local.get $scores local.get $j i32.const 2 i32.shl i32.add f32.load f32.add
          local.set $l`,
        )}
        f32.const 1 local.get $l f32.div f32.const 0 local.get $l f32.const 0 f32.gt select
        local.set $s
        ${zeroRow(acc)}
        ${forLoop(
          '$j',
          'local.get $first',
          'local.get $last i32.const 1 i32.add',
          `local.get $scores local.get $j i32.const 2 i32.shl i32.add local.tee $p
          local.get $p f32.load local.get $s f32.mul local.tee $w f32.store
          ${addr('$vc', 'local.get $bh local.get $cap i32.mul local.get $j i32.add', rowBytes)}
          local.set $p
          ${axpyRow(acc, '$w', '$p', fused)}`,
        )}
        ${addr(
          '$out',
          'local.get $b local.get $Tq i32.mul local.get $t i32.add local.get $H i32.mul local.get $h i32.add',
          rowBytes,
        )}
        local.set $p
        ${storeRow(acc, '$p')}
        local.get $storeProbs if
          ${addr('$probs', 'local.get $bh local.get $Tq i32.mul local.get $t i32.add local.get $cap i32.mul', 4)}
          local.set $p
          ${forLoop(
            '$j',
            'local.get $first',
            'local.get $last i32.const 1 i32.add',
            `local.get $p local.get $j i32.const 2 i32.shl i32.add
            local.get $scores local.get $j i32.const 2 i32.shl i32.add f32.load f32.store`,
          )}
        end`,
      )}`,
    )}`,
  )})`;

  // backward_q: dq_i = scale·Σ_{j ≤ i, P_ij ≠ 0} P_ij (dout_i·v_j − D_i) k_j, D_i = dout_i·out_i.
  const backwardQ = `
(func $backwardQ (param $k i32) (param $v i32) (param $probs i32) (param $out i32) (param $dout i32)
  (param $dq i32) (param $B i32) (param $H i32) (param $T i32) (param $scale f32)
  ${common} ${decl(qv)} ${decl(acc)} (local $di f32) (local $pij f32) (local $sv v128)
  local.get $scale f32x4.splat local.set $sv
  ${overHeads(
    forLoop(
      '$t',
      'i32.const 0',
      'local.get $T',
      `${rowOfHead('$dout', '$t', rowBytes)}
      local.set $p
      ${loadRow(qv, '$p')}
      local.get $p local.get $dout i32.sub local.get $out i32.add local.set $p2
      ${dotWith(qv, '$p2')} local.set $di
      ${zeroRow(acc)}
      ${forLoop(
        '$j',
        'i32.const 0',
        'local.get $t i32.const 1 i32.add',
        `${addr('$probs', 'local.get $bh local.get $T i32.mul local.get $t i32.add local.get $T i32.mul local.get $j i32.add', 4)}
        f32.load local.tee $pij f32.const 0 f32.ne if
          ${addr('$v', 'local.get $bh local.get $T i32.mul local.get $j i32.add', rowBytes)}
          local.set $p
          local.get $pij ${dotWith(qv, '$p')} local.get $di f32.sub f32.mul local.set $w
          local.get $p local.get $v i32.sub local.get $k i32.add local.set $p
          ${axpyRow(acc, '$w', '$p', fused)}
        end`,
      )}
      ${addr('$dq', 'local.get $bh local.get $T i32.mul local.get $t i32.add', rowBytes)}
      local.set $p
      ${storeRow(acc, '$p', '$sv')}`,
    ),
  )})`;

  // backward_kv: dk_j = scale·Σ_{i ≥ j} dS_ij q_i, dv_j = Σ_{i ≥ j} P_ij dout_i.
  const backwardKV = `
(func $backwardKV (param $q i32) (param $v i32) (param $probs i32) (param $out i32)
  (param $dout i32) (param $dk i32) (param $dv i32) (param $ds i32) (param $B i32) (param $H i32)
  (param $T i32) (param $scale f32)
  ${common} ${decl(qv)} ${decl(acc)} ${decl(acc2)} (local $pij f32) (local $sv v128) (local $i i32)
  local.get $scale f32x4.splat local.set $sv
  ${overHeads(`
    ${forLoop(
      '$i',
      'i32.const 0',
      'local.get $T',
      `${rowOfHead('$dout', '$i', rowBytes)}
      local.set $p
      ${loadRow(qv, '$p')}
      local.get $p local.get $dout i32.sub local.get $out i32.add local.set $p2
      local.get $ds local.get $i i32.const 2 i32.shl i32.add ${dotWith(qv, '$p2')} f32.store`,
    )}
    ${forLoop(
      '$j',
      'i32.const 0',
      'local.get $T',
      `${addr('$v', 'local.get $bh local.get $T i32.mul local.get $j i32.add', rowBytes)}
      local.set $p
      ${loadRow(qv, '$p')}
      ${zeroRow(acc)}
      ${zeroRow(acc2)}
      ${forLoop(
        '$i',
        'local.get $j',
        'local.get $T',
        `${addr('$probs', 'local.get $bh local.get $T i32.mul local.get $i i32.add local.get $T i32.mul local.get $j i32.add', 4)}
        f32.load local.tee $pij f32.const 0 f32.ne if
          ${rowOfHead('$dout', '$i', rowBytes)}
          local.set $p
          local.get $pij ${dotWith(qv, '$p')}
          local.get $ds local.get $i i32.const 2 i32.shl i32.add f32.load f32.sub f32.mul
          local.set $w
          ${axpyRow(acc2, '$pij', '$p', fused)}
          ${addr('$q', 'local.get $bh local.get $T i32.mul local.get $i i32.add', rowBytes)}
          local.set $p
          ${axpyRow(acc, '$w', '$p', fused)}
        end`,
      )}
      ${addr('$dk', 'local.get $bh local.get $T i32.mul local.get $j i32.add', rowBytes)}
      local.set $p
      ${storeRow(acc, '$p', '$sv')}
      ${addr('$dv', 'local.get $bh local.get $T i32.mul local.get $j i32.add', rowBytes)}
      local.set $p
      ${storeRow(acc2, '$p')}`,
    )}`)})`;
  return forward + backwardQ + backwardKV;
}

interface AttentionWasm {
  forward(...args: number[]): void;
  backwardQ(...args: number[]): void;
  backwardKV(...args: number[]): void;
}

const modules = new Map<number, AttentionWasm | null>();

function wasmFor(dh: number): AttentionWasm | null {
  if (dh % 4 !== 0) return null;
  let m = modules.get(dh);
  if (m === undefined) {
    m =
      instantiate<AttentionWasm>(attentionModuleText(dh / 4, true)) ??
      instantiate<AttentionWasm>(attentionModuleText(dh / 4, false));
    modules.set(dh, m);
  }
  return m;
}

/**
 * Sequences of the batch for the pool's threads (`perSequence`: multiply-adds of one), each
 * with its own scratch: at most MAX_PIECES pieces.
 */
const pieces = (B: number, perSequence: number) => splitRange(B, 1, B * perSequence, MAX_PIECES);
const MAX_PIECES = 16;

const allF32 = (arrays: NumArray[], except: number) =>
  arrays.every((a, i) => i === except || a instanceof Float32Array);

export function attentionForwardFast(p: Shape & { storeProbs: boolean }, arrays: NumArray[]) {
  const wasm = wasmFor(p.dh);
  if (!wasm || !allF32(arrays, 3)) return false;
  const [q, kc, vc, start, out, probs] = arrays;
  const { B, H, Tq, dh, cap } = p;
  const rowsQ = B * H * Tq * dh;
  const rowsKV = B * H * cap * dh;
  const nProbs = p.storeProbs ? B * H * Tq * cap : 0;
  const io = bind(
    [
      { array: q, n: rowsQ, use: IN },
      { array: kc, n: rowsKV, use: IN },
      { array: vc, n: rowsKV, use: IN },
      { array: start, n: B, use: IN },
      { array: out, n: rowsQ, use: OUT },
      { array: probs, n: nProbs, use: OUT },
    ],
    (cap + 4) * MAX_PIECES,
  );
  if (p.storeProbs) zero(io.at[5], nProbs);
  const scale = Math.fround(1 / Math.sqrt(dh));
  const [qAt, kAt, vAt, startAt, outAt, probsAt] = io.at;
  const [qRow, kvRow, pRow] = [
    4 * H * Tq * dh,
    4 * H * cap * dh,
    p.storeProbs ? 4 * H * Tq * cap : 0,
  ];
  parallel(
    wasm.forward,
    pieces(B, H * Tq * cap * dh).map(([b, n], i) => [
      qAt + b * qRow,
      kAt + b * kvRow,
      vAt + b * kvRow,
      startAt + 4 * b,
      outAt + b * qRow,
      probsAt + b * pRow,
      io.scratch[0] + 4 * (cap + 4) * i,
      n,
      H,
      Tq,
      cap,
      p.qOffset,
      scale,
      +p.storeProbs,
    ]),
  );
  io.done();
  return true;
}

export function attentionBackwardQFast(p: Shape, arrays: NumArray[]): boolean {
  const wasm = wasmFor(p.dh);
  if (!wasm || !allF32(arrays, -1)) return false;
  const [k, v, probs, out, dout, dq] = arrays;
  const { B, H, Tq: T, dh } = p;
  const n = B * H * T * dh;
  const io = bind([
    { array: k, n, use: IN },
    { array: v, n, use: IN },
    { array: probs, n: B * H * T * T, use: IN },
    { array: out, n, use: IN },
    { array: dout, n, use: IN },
    { array: dq, n, use: OUT },
  ]);
  const [kAt, vAt, pAt, outAt, doutAt, dqAt] = io.at;
  const [row, pRow] = [4 * H * T * dh, 4 * H * T * T];
  const scale = Math.fround(1 / Math.sqrt(dh));
  parallel(
    wasm.backwardQ,
    pieces(B, H * T * T * dh).map(([b, m]) => [
      kAt + b * row,
      vAt + b * row,
      pAt + b * pRow,
      outAt + b * row,
      doutAt + b * row,
      dqAt + b * row,
      m,
      H,
      T,
      scale,
    ]),
  );
  io.done();
  return true;
}

export function attentionBackwardKVFast(p: Shape, arrays: NumArray[]): boolean {
  const wasm = wasmFor(p.dh);
  if (!wasm || !allF32(arrays, -1)) return false;
  const [q, v, probs, out, dout, dk, dv] = arrays;
  const { B, H, Tq: T, dh } = p;
  const n = B * H * T * dh;
  const io = bind(
    [
      { array: q, n, use: IN },
      { array: v, n, use: IN },
      { array: probs, n: B * H * T * T, use: IN },
      { array: out, n, use: IN },
      { array: dout, n, use: IN },
      { array: dk, n, use: OUT },
      { array: dv, n, use: OUT },
    ],
    T * MAX_PIECES,
  );
  const [qAt, vAt, pAt, outAt, doutAt, dkAt, dvAt] = io.at;
  const [row, pRow] = [4 * H * T * dh, 4 * H * T * T];
  const scale = Math.fround(1 / Math.sqrt(dh));
  parallel(
    wasm.backwardKV,
    pieces(B, H * T * T * dh).map(([b, m], i) => [
      qAt + b * row,
      vAt + b * row,
      pAt + b * pRow,
      outAt + b * row,
      doutAt + b * row,
      dkAt + b * row,
      dvAt + b * row,
      io.scratch[0] + 4 * T * i,
      m,
      H,
      T,
      scale,
    ]),
  );
  io.done();
  return true;
}
