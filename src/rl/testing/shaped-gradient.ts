// Test-only: the gradient of the off-policy shaped loss against finite differences, on any
// backend (the unit suite runs it on the CPU twin, the wgsl suite on WebGPU). The loss mixes
// shaped rows, L = −Σ c·f(p) with f(p) = p/(p + γ), and plain ones, −Σ c·log p, as a group
// with a written answer does; the analytic gradient is the model's backward with the weights
// the policy update uses, the numeric one comes from a float64 CPU model.
import type { Backend } from '../../engine/backend.ts';
import { CHECK_CONFIG, checkBatch, numericGradients } from '../../model/selfcheck/model-checks.ts';
import { Transformer } from '../../model/transformer.ts';
import { offPolicyShape } from '../shaping.ts';

const GAMMA = 0.1;

/** The worst mismatch per parameter tensor: |got − want| beyond atol + rtol·|want|, or none. */
export async function shapedGradientProblems(be: Backend): Promise<string[]> {
  const { batch, weights: coef } = checkBatch();
  const R = batch.B * batch.T;
  // Every other sequence stands for a written answer.
  const shaped = Uint8Array.from({ length: R }, (_, n) => Math.floor(n / batch.T) % 2);
  const weightsFor = (logp: ArrayLike<number>) =>
    Float32Array.from({ length: R }, (_, n) =>
      shaped[n] ? coef[n] * offPolicyShape(logp[n], GAMMA).weight : coef[n],
    );

  const model = Transformer.create(be, CHECK_CONFIG, 3);
  model.forwardTrain(batch);
  model.backward(weightsFor((await model.readTrainStats()).logp));
  const grads = await Promise.all(model.params.list.map((p) => be.read(p.grad)));

  const problems: string[] = [];
  const numeric = numericGradients((logp) => {
    let s = 0;
    for (let n = 0; n < R; n++)
      s -= coef[n] * (shaped[n] ? offPolicyShape(logp[n], GAMMA).value : logp[n]);
    return s;
  });
  numeric.forEach(({ label, at, want }, i) =>
    at.forEach((k, j) => {
      const got = grads[i][k];
      if (Math.abs(got - want[j]) > 1e-4 + 1e-2 * Math.abs(want[j]))
        problems.push(`${label}[${k}]: ${got} against ${want[j]}`);
    }),
  );
  model.free();
  return problems;
}
