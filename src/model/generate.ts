import { gatherRows } from '../engine/kernels/gather.ts';
import { sampleTokens } from '../engine/kernels/sample.ts';
import { packBatch } from './batch.ts';
import type { Transformer } from './transformer.ts';
import type { Workspace } from './workspace.ts';

/**
 * With the KV cache the tokens stay on the device between steps: they are read back every this
 * many steps (to see whether every sequence has ended), not after each one.
 */
export const READ_EVERY = 8;

export interface GenerateOptions {
  maxNewTokens: number;
  /** 0 = greedy. */
  temperature: number;
  /** 0 or absent = no top-k filter. */
  topK?: number;
  seed: number;
  /** RNG counter of the first draw; step s of sequence b draws counter + s·B + b. */
  counter: number;
  eos: number;
  pad: number;
  /** Default true. False recomputes the whole sequence every step (reference and benchmark). */
  useCache?: boolean;
  /**
   * Default true: with the cache, a prompt that several sequences share (a GRPO group's G
   * answers) is prefilled once and its cache handed to each. False prefills every sequence.
   */
  sharePrompts?: boolean;
  /** Called as each step enters a phase, and awaited (the profiler waits for the device there). */
  onPhase?: (phase: DecodePhase, step: number) => Promise<void> | void;
}

/** The phases of one generation step: the model's forward, the draw, the read back to the host. */
export type DecodePhase = 'forward' | 'sample' | 'read' | 'done';

export interface Generation {
  /** Sampled tokens per sequence, up to and including the end token when one was drawn. */
  tokens: Uint32Array[];
  /** Log-probability of each sampled token under the distribution it was drawn from. */
  logprobs: Float32Array[];
  /** Whether the sequence ended with the end token. */
  finished: boolean[];
  /** Wall time of the first step (prompt prefill and first draw), and of the decoding steps after it. */
  timing: { firstStepMs: number; decodeMs: number; decodeSteps: number };
}

/**
 * Batched sampling of continuations of `prompts` (token ids, no padding), stopping at the end
 * token or after maxNewTokens. Prompts are left-padded so all sequences append at one column;
 * with the KV cache each step runs one query row per sequence.
 */
export async function generate(
  model: Transformer,
  prompts: readonly Uint32Array[],
  opts: GenerateOptions,
): Promise<Generation> {
  const B = prompts.length;
  const ctxLen = model.config.contextLength;
  const V = model.config.vocabSize;
  const Tp = Math.max(...prompts.map((p) => p.length));
  if (prompts.some((p) => p.length === 0))
    throw new RangeError('generate: every prompt needs a token');
  if (Tp >= ctxLen)
    throw new RangeError(
      `generate: a prompt of ${Tp} tokens leaves no room in the context of ${ctxLen}`,
    );
  const maxNew = Math.min(opts.maxNewTokens, ctxLen - Tp);
  const out = {
    tokens: prompts.map(() => [] as number[]),
    logprobs: prompts.map(() => [] as number[]),
    finished: prompts.map(() => false),
  };
  const be = model.be;
  const lp = be.alloc(B, 'f32', 'sampled logprobs');
  // Every step's draws, row s of B; the host reads them back now and then.
  const history = {
    tokens: be.alloc(maxNew * B, 'u32', 'sampled tokens'),
    logprobs: be.alloc(maxNew * B, 'f32', 'sampled token logprobs'),
  };
  const cache = opts.useCache ?? true;
  const cap = Tp + maxNew;
  // With the cache, the sampler moves each sequence's digit place on, on the device, for the
  // next step's single query row.
  const places = cache ? (model.config.places ?? null) : null;
  const sample = (
    ws: ReturnType<Transformer['inference']>,
    stride: number,
    offset: number,
    step: number,
  ) =>
    sampleTokens(
      be,
      {
        logits: ws.logits,
        tokens: ws.tokens,
        logprobs: lp,
        history,
        place: places && ws.places ? ws.places.place : undefined,
      },
      {
        B,
        vocab: V,
        stride,
        offset,
        temperature: opts.temperature,
        topK: opts.topK ?? 0,
        seed: opts.seed,
        counter: opts.counter + step * B,
        historyOffset: step * B,
        places: places && ws.places ? places : null,
      },
    );
  /** History rows up to `to` not taken yet (one read of both buffers); whether all have ended. */
  let seen = 0;
  const take = async (to: number): Promise<boolean> => {
    const [toks, lps] = await be.readMany<'u32' | 'f32'>([history.tokens, history.logprobs]);
    for (let s = seen; s < to; s++) {
      for (let b = 0; b < B; b++) {
        if (out.finished[b]) continue;
        out.tokens[b].push(toks[s * B + b]);
        out.logprobs[b].push(lps[s * B + b]);
        if (toks[s * B + b] === opts.eos) out.finished[b] = true;
      }
    }
    seen = to;
    return out.finished.every(Boolean);
  };

  // Awaited only when a profiler listens: no extra microtask per token otherwise.
  const onPhase = opts.onPhase;
  const t0 = performance.now();
  let firstStepMs = 0;
  let steps = 0;
  try {
    for (let s = 0; s < maxNew; s++) {
      let ws;
      if (onPhase) await onPhase('forward', s);
      if (cache) {
        ws = model.inference({ rows: B * Tp, cacheRows: B * cap, probsPerHead: 0 }, B);
        if (s === 0) {
          const batch = packBatch(prompts, opts.pad, Tp);
          // Left padding puts every prompt's last token in column Tp − 1.
          const placed = model.writeTokens(ws, batch);
          const shared = (opts.sharePrompts ?? true) ? sharedPrompts(prompts) : null;
          if (shared) prefillShared(model, ws, shared, { Tp, cap, pad: opts.pad });
          else model.runInference(ws, { B, Tq: Tp, cap, qOffset: 0 });
          // From here on the place buffer holds one row per sequence: its last token's place.
          if (placed && ws.places)
            be.write(
              ws.places.place,
              Uint32Array.from({ length: B }, (_, b) => placed[b * Tp + Tp - 1]),
            );
          if (onPhase) await onPhase('sample', s);
          // Shared prompts leave one row of logits per sequence, the others all of the prompt's.
          if (shared) sample(ws, V, 0, s);
          else sample(ws, Tp * V, (Tp - 1) * V, s);
        } else {
          // The previous step's samples (and places) are already in ws, one row per sequence.
          model.runInference(ws, { B, Tq: 1, cap, qOffset: Tp + s - 1 });
          if (onPhase) await onPhase('sample', s);
          sample(ws, V, 0, s);
        }
      } else {
        const seqs = prompts.map((p, b) => Uint32Array.from([...p, ...out.tokens[b]]));
        const T = Tp + s;
        const batch = packBatch(seqs, opts.pad, T);
        ws = model.inference({ rows: B * T, cacheRows: B * T, probsPerHead: 0 }, B);
        model.writeTokens(ws, batch);
        model.runInference(ws, { B, Tq: T, cap: T, qOffset: 0 });
        if (onPhase) await onPhase('sample', s);
        sample(ws, T * V, (T - 1) * V, s);
      }
      steps++;
      // Without the cache the next step needs this one's tokens on the host.
      const due = !cache || s === 0 || (s + 1) % READ_EVERY === 0 || s + 1 === maxNew;
      if (due) {
        if (onPhase) await onPhase('read', s);
        const ended = await take(s + 1);
        if (onPhase) await onPhase('done', s);
        if (s === 0) firstStepMs = performance.now() - t0;
        if (ended) break;
      }
    }
  } finally {
    be.free(lp);
    be.free(history.tokens);
    be.free(history.logprobs);
  }
  return {
    tokens: out.tokens.map((t) => Uint32Array.from(t)),
    logprobs: out.logprobs.map((l) => Float32Array.from(l)),
    finished: out.finished,
    timing: { firstStepMs, decodeMs: performance.now() - t0 - firstStepMs, decodeSteps: steps - 1 },
  };
}

/** The distinct prompts and, per sequence, which of them it has. */
interface SharedPrompts {
  unique: Uint32Array[];
  of: Uint32Array;
}

/** The prompts' sharing; null when all are distinct. */
function sharedPrompts(prompts: readonly Uint32Array[]): SharedPrompts | null {
  const seen = new Map<string, number>();
  const unique: Uint32Array[] = [];
  const of = Uint32Array.from(prompts, (p) => {
    const key = p.join(',');
    let u = seen.get(key);
    if (u === undefined) {
      u = unique.push(p) - 1;
      seen.set(key, u);
    }
    return u;
  });
  return unique.length < prompts.length ? { unique, of } : null;
}

/**
 * Prefill each distinct prompt once, in the second inference workspace, then copy its K/V cache
 * (every block) and its last row of logits to each sequence that has it. Rows are independent in
 * every kernel, so each sequence gets exactly what its own prefill would have given.
 */
function prefillShared(
  model: Transformer,
  ws: Workspace,
  shared: SharedPrompts,
  { Tp, cap, pad }: { Tp: number; cap: number; pad: number },
): void {
  const be = model.be;
  const U = shared.unique.length;
  const B = shared.of.length;
  const { dModel: d, vocabSize: V } = model.config;
  const pre = model.inference({ rows: U * Tp, cacheRows: U * cap, probsPerHead: 0 }, U, 'prefill');
  model.writeTokens(pre, packBatch(shared.unique, pad, Tp));
  model.runInference(pre, { B: U, Tq: Tp, cap, qOffset: 0 });
  const index = be.alloc(B, 'u32', 'shared prompt of each sequence');
  try {
    be.write(index, shared.of);
    // A sequence's cache is one block of cap·d per layer (heads × columns × head dimension).
    const cache = { rows: B, rowLen: cap * d, stride: cap * d, offset: 0, srcRows: U };
    ws.blocks.forEach((block, l) => {
      gatherRows(be, block.k, pre.blocks[l].k, index, cache);
      gatherRows(be, block.v, pre.blocks[l].v, index, cache);
    });
    const last = { rows: B, rowLen: V, stride: Tp * V, offset: (Tp - 1) * V, srcRows: U };
    gatherRows(be, ws.logits, pre.logits, index, last);
  } finally {
    be.free(index);
  }
}
