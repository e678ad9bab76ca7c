import type { Backend, Tensor } from '../backend.ts';
import { CpuBackend } from '../cpu/cpu-backend.ts';
import { pcgHash } from '../random.ts';
import { bind, freeAll, type Bound, type Inputs, type SelfCheck } from './check.ts';
import { compare, type Tolerance } from './compare.ts';

/**
 * Central finite differences of a scalar function at `samples` coordinates of `x` (all of them
 * when x is small). Returns the coordinates and the estimated partial derivatives.
 */
export function finiteDifferences(
  x: Float64Array,
  loss: () => number,
  opts: { eps: number; samples: number; seed: number },
): { at: number[]; grad: Float64Array } {
  const at: number[] = [];
  if (x.length <= opts.samples) for (let i = 0; i < x.length; i++) at.push(i);
  else for (let s = 0; s < opts.samples; s++) at.push(pcgHash(opts.seed * 7919 + s) % x.length);
  const grad = new Float64Array(at.length);
  at.forEach((i, k) => {
    const saved = x[i];
    x[i] = saved + opts.eps;
    const up = loss();
    x[i] = saved - opts.eps;
    const down = loss();
    x[i] = saved;
    grad[k] = (up - down) / (2 * opts.eps);
  });
  return { at, grad };
}

/**
 * A backward pass against finite differences. The loss is Σ upstream ⊙ forward(inputs); the
 * analytic gradients come from `backward` on the backend under test, the numeric ones from
 * `forward` on a float64 CPU twin, so float32 rounding does not swamp the differences.
 */
export function gradient<I extends Inputs>(
  name: string,
  spec: {
    inputs: I;
    wrt: readonly (keyof I & string)[];
    upstream: keyof I & string;
    forward: (be: Backend, t: Bound<I>) => Tensor;
    backward: (be: Backend, t: Bound<I>) => Partial<Record<keyof I & string, Tensor>>;
    tol: Tolerance;
    eps?: number;
    samples?: number;
    seed?: number;
  },
): SelfCheck {
  const seed = spec.seed ?? 4242;
  return {
    name,
    kind: 'gradient',
    async run(be) {
      const tb = bind(be, spec.inputs, seed);
      const grads = spec.backward(be, tb);
      const ref = new CpuBackend({ float64: true });
      const tr = bind(ref, spec.inputs, seed);
      const upstream = ref.view(tr[spec.upstream]);
      const loss = () => {
        const out = ref.view(spec.forward(ref, tr));
        let s = 0;
        for (let i = 0; i < upstream.length; i++) s += upstream[i] * out[i];
        return s;
      };
      let maxError = 0;
      let pass = true;
      const notes: string[] = [];
      for (const key of spec.wrt) {
        const g = grads[key];
        if (!g) throw new Error(`${name}: backward returned no gradient for ${key}`);
        const analytic = await be.read(g);
        const x = ref.view(tr[key]) as Float64Array;
        const fd = finiteDifferences(x, loss, {
          eps: spec.eps ?? 1e-3,
          samples: spec.samples ?? 24,
          seed: seed + key.length,
        });
        const picked = fd.at.map((i) => analytic[i]);
        const c = compare(picked, fd.grad, spec.tol);
        maxError = Math.max(maxError, c.maxError);
        if (!c.pass) {
          pass = false;
          notes.push(`d/d${key}[${fd.at[c.at]}] off by ${c.worst.toFixed(2)}× tolerance`);
        }
      }
      freeAll(be, tb);
      for (const g of Object.values(grads))
        if (g && !Object.values(tb).includes(g)) be.free(g as Tensor);
      return { name, kind: 'gradient', pass, maxError, detail: notes.join('; ') || 'ok' };
    },
  };
}
