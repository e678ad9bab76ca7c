// Test-only: the gradient of the off-policy shaped loss against finite differences, on any
// backend (the unit suite runs it on the CPU twin, the wgsl suite on WebGPU). The loss mixes
// shaped rows, L = −Σ c·f(p) with f(p) = p/(p + γ), and plain ones, −Σ c·log p, as a group
// with a written answer does; the analytic gradient is the model's backward with the weights
// the policy update uses, the numeric one comes from a float64 CPU model.
import type { Backend } from '../../engine/backend.ts';
import { CpuBackend } from '../../engine/cpu/cpu-backend.ts';
import { finiteDifferences } from '../../engine/selfcheck/gradient.ts';
import { forward } from '../../model/forward.ts';
import { CHECK_CONFIG, checkBatch } from '../../model/selfcheck/model-checks.ts';
import { Transformer } from '../../model/transformer.ts';
import { Workspace } from '../../model/workspace.ts';
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

  const ref = new CpuBackend({ float64: true });
  const refModel = Transformer.create(ref, CHECK_CONFIG, 3);
  const ws = new Workspace(
    ref,
    CHECK_CONFIG,
    { rows: R, cacheRows: R, probsPerHead: R * batch.T },
    true,
    batch.B,
  );
  refModel.writeTokens(ws, batch);
  ref.write(ws.targets, batch.targets);
  const loss = () => {
    forward(refModel.ctx, ws, { B: batch.B, Tq: batch.T, cap: batch.T, qOffset: 0 }, true);
    const logp = ref.view(ws.logp);
    let s = 0;
    for (let n = 0; n < R; n++)
      s -= coef[n] * (shaped[n] ? offPolicyShape(logp[n], GAMMA).value : logp[n]);
    return s;
  };
  const problems: string[] = [];
  refModel.params.list.forEach((p, i) => {
    const fd = finiteDifferences(ref.view(p.value) as Float64Array, loss, {
      eps: 1e-4,
      samples: 24,
      seed: i + 1,
    });
    fd.at.forEach((k, j) => {
      const [got, want] = [grads[i][k], fd.grad[j]];
      if (Math.abs(got - want) > 1e-4 + 1e-2 * Math.abs(want))
        problems.push(`${p.spec.name}[${k}]: ${got} against ${want}`);
    });
  });
  model.free();
  refModel.free();
  return problems;
}
