import {
  ACTIVE,
  ARGS,
  CHUNKS,
  DONE,
  EXPORT,
  FAILED,
  GEN,
  MAX_ARGS,
  MODULE,
  MODULES,
  NEXT,
  type PoolThreadInit,
} from './control.ts';

/**
 * How long a thread spins on the generation before it sleeps. In a training step the next job
 * mostly follows within this, and a sleeping thread costs the next job ~60 µs to wake (measured
 * on a 2-core VM: a job of two 22 µs chunks took 85 µs after a 1 ms gap, 37 µs after 0.1 ms).
 */
const SPIN_MS = 0.2;

/**
 * A pool thread's whole life: wait for a job, take its chunks until none is left, again. It
 * compiles a module the first time a job names it, from the bytes the owner left in the heap.
 * Never returns; the thread ends when its owner terminates it.
 */
export function serve({ memory, control, args }: PoolThreadInit): never {
  const ctl = new Int32Array(control);
  const argv = new Float64Array(args);
  const modules: ((...a: number[]) => void)[][] = [];
  const fnOf = (m: number, e: number) => {
    if (!modules[m]) {
      const at = Atomics.load(ctl, MODULES + 2 * m);
      const length = Atomics.load(ctl, MODULES + 2 * m + 1);
      const bytes = new Uint8Array(memory.buffer, at, length).slice();
      const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } });
      modules[m] = Object.values(instance.exports) as ((...a: number[]) => void)[];
    }
    return modules[m][e];
  };
  let seen = Atomics.load(ctl, GEN);
  for (;;) {
    const gen = Atomics.load(ctl, GEN);
    if (gen === seen || gen & 1) {
      const until = performance.now() + SPIN_MS;
      while (Atomics.load(ctl, GEN) === gen && performance.now() < until) {
        for (let s = 0; s < 256 && Atomics.load(ctl, GEN) === gen; s++);
      }
      if (Atomics.load(ctl, GEN) === gen) Atomics.wait(ctl, GEN, gen);
      continue;
    }
    Atomics.add(ctl, ACTIVE, 1);
    // The owner may have started writing the next job since: leave it be.
    if (Atomics.load(ctl, GEN) === gen) {
      seen = gen;
      const chunks = Atomics.load(ctl, CHUNKS);
      const nArgs = Atomics.load(ctl, ARGS);
      let fn: ((...a: number[]) => void) | null = null;
      for (let c = Atomics.add(ctl, NEXT, 1); c < chunks; c = Atomics.add(ctl, NEXT, 1)) {
        try {
          fn ??= fnOf(Atomics.load(ctl, MODULE), Atomics.load(ctl, EXPORT));
          fn(...argv.subarray(c * MAX_ARGS, c * MAX_ARGS + nArgs));
        } catch {
          Atomics.store(ctl, FAILED, 1);
        }
        if (Atomics.add(ctl, DONE, 1) + 1 === chunks) Atomics.notify(ctl, DONE);
      }
    }
    if (Atomics.sub(ctl, ACTIVE, 1) === 1) Atomics.notify(ctl, ACTIVE);
  }
}
