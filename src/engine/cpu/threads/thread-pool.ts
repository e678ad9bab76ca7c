import { allocBlock, freeBlock, heapModules, originOf, sharedHeap } from '../fast/heap.ts';
import {
  ACTIVE,
  ARGS,
  CHUNKS,
  CONTROL_WORDS,
  DONE,
  EXPORT,
  FAILED,
  GEN,
  MAX_ARGS,
  MAX_CHUNKS,
  MAX_MODULES,
  MODULE,
  MODULES,
  NEXT,
  type PoolThreadInit,
} from './control.ts';

/** A started thread, as the host made it (a Worker in a page, a worker_threads one in Node). */
export interface PoolThread {
  terminate(): void;
}

/** Starts one thread that calls serve(init) (./pool-thread.ts). */
export type SpawnPoolThread = (init: PoolThreadInit) => PoolThread;

/** How many threads the CPU kernels use, and why no more than that. */
export interface PoolStatus {
  threads: number;
  /** Why the kernels run on fewer threads than asked for; null when they run on all of them. */
  reason: string | null;
}

/** A job's chunk that has not finished after this long means a thread is gone. */
const STALL_MS = 10_000;
const SPINS = 4000;
/**
 * Work (multiply-adds, or their worth) of the smallest piece a job is split into: ~0.1 ms on one
 * thread, against the few µs a spinning thread takes to join and the ~60 µs a sleeping one does.
 */
export const CHUNK_WORK = 1 << 21;

type WasmFn = (...args: number[]) => void;

class ThreadPool {
  private readonly ctl: Int32Array;
  private readonly argv: Float64Array;
  /** Modules whose bytes lie in the heap for the threads: where, and how many 4-byte words. */
  private readonly published = new Map<number, [at: number, words: number]>();

  constructor(
    readonly threads: number,
    private readonly memory: WebAssembly.Memory,
    private readonly init: PoolThreadInit,
    private readonly workers: PoolThread[],
  ) {
    this.ctl = new Int32Array(init.control);
    this.argv = new Float64Array(init.args);
  }

  /** Leaves module m's bytes in the heap for the threads, once. */
  private publish(m: number): void {
    if (this.published.has(m)) return;
    const bytes = heapModules[m];
    const words = Math.ceil(bytes.length / 4);
    const at = allocBlock(words);
    if (at === null) throw new Error('the WebAssembly memory is full');
    new Uint8Array(this.memory.buffer, at, bytes.length).set(bytes);
    Atomics.store(this.ctl, MODULES + 2 * m, at);
    Atomics.store(this.ctl, MODULES + 2 * m + 1, bytes.length);
    this.published.set(m, [at, words]);
  }

  /** Blocks until ctl[word] is `until`, sleeping between looks; throws past STALL_MS. */
  private await(word: number, until: number): void {
    const ctl = this.ctl;
    for (let s = 0; s < SPINS; s++) if (Atomics.load(ctl, word) === until) return;
    const deadline = performance.now() + STALL_MS;
    for (let v = Atomics.load(ctl, word); v !== until; v = Atomics.load(ctl, word)) {
      if (performance.now() > deadline) {
        stopThreadPool();
        throw new Error(
          `a CPU thread stopped answering (${STALL_MS / 1000} s); the kernels go on one thread`,
        );
      }
      Atomics.wait(ctl, word, v, 50);
    }
  }

  run(fn: WasmFn, chunks: readonly (readonly number[])[]): void {
    const origin = originOf(fn);
    if (!origin) throw new Error("the thread pool runs only functions of the heap's modules");
    // Past the control block's table of modules (none of the model's kernels gets there): here.
    if (origin.module >= MAX_MODULES) {
      for (const c of chunks) fn(...c);
      return;
    }
    const nArgs = chunks[0].length;
    if (chunks.length > MAX_CHUNKS || chunks.some((c) => c.length !== nArgs) || nArgs > MAX_ARGS)
      throw new Error(
        `a job is at most ${MAX_CHUNKS} chunks of as many arguments, at most ${MAX_ARGS}`,
      );
    this.publish(origin.module);
    const { ctl, argv } = this;
    Atomics.add(ctl, GEN, 1); // odd: writing
    this.await(ACTIVE, 0);
    chunks.forEach((c, i) => argv.set(c, i * MAX_ARGS));
    Atomics.store(ctl, CHUNKS, chunks.length);
    Atomics.store(ctl, ARGS, nArgs);
    Atomics.store(ctl, MODULE, origin.module);
    Atomics.store(ctl, EXPORT, origin.index);
    Atomics.store(ctl, FAILED, 0);
    Atomics.store(ctl, DONE, 0);
    Atomics.store(ctl, NEXT, 0);
    Atomics.add(ctl, GEN, 1); // even: published
    Atomics.notify(ctl, GEN);
    let thrown: unknown = null;
    for (let c = Atomics.add(ctl, NEXT, 1); c < chunks.length; c = Atomics.add(ctl, NEXT, 1)) {
      try {
        fn(...chunks[c]);
      } catch (e) {
        thrown ??= e;
      }
      Atomics.add(ctl, DONE, 1);
    }
    this.await(DONE, chunks.length);
    if (thrown) throw thrown;
    if (Atomics.load(ctl, FAILED)) throw new Error('a CPU thread failed in a kernel');
  }

  stop(): void {
    for (const w of this.workers) w.terminate();
    for (const [at, words] of this.published.values()) freeBlock(at, words);
  }
}

let pool: ThreadPool | null = null;

/**
 * Starts `threads − 1` threads beside this one for the CPU kernels (a pool of one is no pool).
 * Possible only where the heap is a shared memory: in Node, and in a page that is cross-origin
 * isolated; elsewhere the kernels stay on this thread and the status says why.
 */
export function startThreadPool(threads: number, spawn: SpawnPoolThread): PoolStatus {
  stopThreadPool();
  if (!Number.isInteger(threads) || threads < 1)
    throw new Error(`threads must be ≥ 1, got ${threads}`);
  if (threads === 1) return { threads: 1, reason: 'one thread asked for' };
  const memory = sharedHeap();
  if (!memory) {
    return {
      threads: 1,
      reason:
        typeof SharedArrayBuffer === 'function'
          ? 'the WebAssembly memory could not be shared'
          : 'the page is not cross-origin isolated, so memory cannot be shared between threads',
    };
  }
  const init: PoolThreadInit = {
    memory,
    control: new SharedArrayBuffer(4 * CONTROL_WORDS),
    args: new SharedArrayBuffer(8 * MAX_CHUNKS * MAX_ARGS),
  };
  const workers: PoolThread[] = [];
  try {
    for (let i = 1; i < threads; i++) workers.push(spawn(init));
  } catch (e) {
    for (const w of workers) w.terminate();
    return { threads: 1, reason: `a thread could not start: ${(e as Error).message}` };
  }
  pool = new ThreadPool(threads, memory, init, workers);
  return { threads, reason: null };
}

export function stopThreadPool(): void {
  pool?.stop();
  pool = null;
}

/** Threads the CPU kernels split their work across (this one included). */
export function poolThreads(): number {
  return pool?.threads ?? 1;
}

/**
 * fn(...chunk) for every chunk, across the pool's threads where there is one, else here in
 * order. The chunks must write disjoint memory; each runs on one thread as it would alone, so
 * the results are those of one thread bit for bit.
 */
export function parallel(fn: WasmFn, chunks: readonly (readonly number[])[]): void {
  if (pool && chunks.length > 1) pool.run(fn, chunks);
  else for (const c of chunks) fn(...c);
}

/**
 * [start, count) pieces of n items, each a whole number of `multiple` (the last takes the rest):
 * one per CHUNK_WORK of `work` (multiply-adds, say), so a piece is worth waking a thread for,
 * and up to four per thread, so a thread slowed by another lane or program takes fewer; one
 * piece without a pool. `most` pieces at most.
 */
export function splitRange(
  n: number,
  multiple: number,
  work: number,
  most = MAX_CHUNKS,
): [number, number][] {
  const units = Math.floor(n / multiple);
  const threads = poolThreads();
  if (threads === 1) return [[0, n]];
  const pieces = Math.min(most, units, 4 * threads, Math.floor(work / CHUNK_WORK));
  if (pieces <= 1) return [[0, n]];
  const out: [number, number][] = [];
  for (let p = 0, start = 0; p < pieces; p++) {
    const end = p === pieces - 1 ? n : Math.round(((p + 1) * units) / pieces) * multiple;
    out.push([start, end - start]);
    start = end;
  }
  return out;
}
