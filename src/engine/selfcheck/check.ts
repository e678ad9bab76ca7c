import type { Backend, HostArray, Tensor } from '../backend.ts';
import { CpuBackend } from '../cpu/cpu-backend.ts';
import { normals, uniforms } from '../random.ts';
import { compare, type Tolerance } from './compare.ts';

export type CheckKind = 'parity' | 'gradient' | 'training';

export interface CheckResult {
  name: string;
  kind: CheckKind;
  pass: boolean;
  /** Largest absolute difference against the reference. */
  maxError: number;
  detail: string;
}

/** One entry of the self-check: runs on any backend, judged against a CPU reference. */
export interface SelfCheck {
  name: string;
  kind: CheckKind;
  run(be: Backend): Promise<CheckResult>;
}

/** How to fill one input: normal(σ), uniform(lo, hi), or exact data. */
export type Init =
  { normal: number } | { uniform: readonly [number, number] } | { data: HostArray };

export type Inputs = Record<string, { size: number; init?: Init }>;
export type Bound<I> = { [K in keyof I]: Tensor };

let seedCounter = 1;

export function fillData(size: number, init: Init | undefined, seed: number): HostArray {
  if (!init) return new Float32Array(size);
  if ('data' in init) return init.data;
  if ('normal' in init) return normals(seed, size, init.normal);
  return uniforms(seed, size, init.uniform[0], init.uniform[1]);
}

/** Allocate and fill every input on `be`, with the same data on every backend for a seed. */
export function bind<I extends Inputs>(be: Backend, inputs: I, seed: number): Bound<I> {
  const out: Record<string, Tensor> = {};
  let s = seed;
  for (const [name, spec] of Object.entries(inputs)) {
    const data = fillData(spec.size, spec.init, s++);
    const t = be.alloc(
      spec.size,
      data instanceof Float32Array ? 'f32' : data instanceof Uint32Array ? 'u32' : 'i32',
      name,
    );
    be.write(t, data);
    out[name] = t;
  }
  return out as Bound<I>;
}

export function freeAll(be: Backend, ts: Record<string, Tensor>): void {
  for (const t of Object.values(ts)) be.free(t);
}

/**
 * Kernel parity: run `launch` on the backend under test and on the CPU reference twin with the
 * same inputs, then compare the named outputs.
 */
export function parity<I extends Inputs>(
  name: string,
  spec: {
    inputs: I;
    outputs: readonly (keyof I & string)[];
    launch: (be: Backend, t: Bound<I>) => void;
    tol: Tolerance;
  },
): SelfCheck {
  const seed = 1000 * seedCounter++;
  return {
    name,
    kind: 'parity',
    async run(be) {
      // The plain twins: what WebGPU and the CPU backend's fast paths are both held to.
      const ref = new CpuBackend({ reference: true });
      const tr = bind(ref, spec.inputs, seed);
      const tb = bind(be, spec.inputs, seed);
      spec.launch(ref, tr);
      spec.launch(be, tb);
      let maxError = 0;
      let pass = true;
      const notes: string[] = [];
      for (const out of spec.outputs) {
        const c = compare(await be.read(tb[out]), await ref.read(tr[out]), spec.tol);
        maxError = Math.max(maxError, c.maxError);
        if (!c.pass) {
          pass = false;
          notes.push(`${out}[${c.at}] off by ${c.worst.toFixed(2)}× tolerance`);
        }
      }
      freeAll(be, tb);
      return { name, kind: 'parity', pass, maxError, detail: notes.join('; ') || 'ok' };
    },
  };
}
