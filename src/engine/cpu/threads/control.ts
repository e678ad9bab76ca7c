// The words the thread pool's threads and its owner share: one job at a time, its chunks taken
// in turn by whichever thread is free, the owner included. Layout of the control block (Int32):
//   GEN     the job's generation: odd while the owner writes a job, even once it is published
//   ACTIVE  threads inside the current job (the owner writes the next one only when it is 0)
//   NEXT    the next chunk to take;  DONE  chunks finished;  CHUNKS  chunks in the job
//   MODULE, EXPORT  the function: a module of the heap and the index of its export
//   ARGS    arguments per chunk;  FAILED  1 once a chunk threw (the owner reports it)
//   MODULES + 2·m  where module m's bytes lie in the heap, and their length
// The chunks' arguments are float64 (every i32 and f32 argument is exact in it), CHUNKS × ARGS.

export const GEN = 0;
export const ACTIVE = 1;
export const NEXT = 2;
export const DONE = 3;
export const CHUNKS = 4;
export const MODULE = 5;
export const EXPORT = 6;
export const ARGS = 7;
export const FAILED = 8;
export const MODULES = 16;

/** Most modules the heap may hold, most chunks in one job, most arguments of a function. */
export const MAX_MODULES = 256;
export const MAX_CHUNKS = 64;
export const MAX_ARGS = 24;

export const CONTROL_WORDS = MODULES + 2 * MAX_MODULES;

/** What a pool thread is started with. */
export interface PoolThreadInit {
  /** The heap: a shared WebAssembly.Memory every kernel module imports. */
  memory: WebAssembly.Memory;
  /** CONTROL_WORDS Int32 words. */
  control: SharedArrayBuffer;
  /** MAX_CHUNKS × MAX_ARGS Float64 words. */
  args: SharedArrayBuffer;
}
