import type { Tensor } from '../engine/backend.ts';
import { adamw } from '../engine/kernels/adamw.ts';
import { fill } from '../engine/kernels/elementwise.ts';
import { clipGradNorm, SKIP_STEP } from '../engine/kernels/gradnorm.ts';
import { numel, type ParamSpec } from './param-spec.ts';
import { CheckpointError, type NamedTensor } from './safetensors.ts';
import type { Transformer } from './transformer.ts';

export interface OptimizerConfig {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  /** Decoupled weight decay, applied to matrices only. */
  weightDecay: number;
  /** Global gradient-norm clip; 0 disables clipping. */
  maxGradNorm: number;
}

/** AdamW's state on the host: its step count and both moments of every parameter. */
export interface OptimizerState {
  step: number;
  /** `adam.m.<parameter>` and `adam.v.<parameter>`, shaped as the parameter. */
  moments: NamedTensor[];
}

export const DEFAULT_OPTIMIZER: OptimizerConfig = {
  lr: 1e-3,
  beta1: 0.9,
  beta2: 0.999,
  eps: 1e-8,
  weightDecay: 0.01,
  maxGradNorm: 1,
};

/**
 * AdamW over every parameter of a Transformer, with global grad-norm clipping computed on the
 * device (the clip factor feeds AdamW directly; the norm is read only when asked for).
 */
export class AdamW {
  private readonly moments: { m: Tensor<'f32'>; v: Tensor<'f32'> }[];
  private readonly slots: Tensor;
  /** [clip factor, grad norm]. */
  private readonly clip: Tensor;
  step = 0;
  /** The step count settle() last saw: a skipped step is taken back once, however often read. */
  private settledStep = 0;

  constructor(
    private readonly model: Transformer,
    public config: OptimizerConfig = DEFAULT_OPTIMIZER,
  ) {
    const be = model.be;
    this.moments = model.params.list.map((p) => {
      const m = be.alloc(p.value.size, 'f32', `adam.m.${p.spec.name}`);
      const v = be.alloc(p.value.size, 'f32', `adam.v.${p.spec.name}`);
      fill(be, m);
      fill(be, v);
      return { m, v };
    });
    this.slots = be.alloc(model.params.list.length, 'f32', 'grad norm slots');
    this.clip = be.alloc(2, 'f32', 'grad clip');
  }

  /** One update from the accumulated gradients; the next backward starts them afresh. */
  update(lr = this.config.lr): void {
    const be = this.model.be;
    const params = this.model.params.list;
    this.step++;
    clipGradNorm(
      be,
      params.map((p) => p.grad),
      this.slots,
      this.clip,
      this.config.maxGradNorm,
    );
    params.forEach((p, i) => {
      adamw(
        be,
        { param: p.value, grad: p.grad, ...this.moments[i], gradScale: this.clip },
        { ...this.config, lr, weightDecay: p.spec.decay ? this.config.weightDecay : 0 },
        this.step,
      );
    });
    this.model.gradientsConsumed();
  }

  /**
   * What the last update did, in one read: its gradient norm, and whether it was skipped because
   * the norm was not finite (clipGradNorm marked it on the device and AdamW wrote nothing). A
   * skipped update takes its step back, so the optimizer is exactly as it was before it. With
   * several updates between reads, only the last is known.
   */
  async settle(): Promise<{ gradNorm: number; skipped: boolean }> {
    const [factor, gradNorm] = await this.model.be.read(this.clip);
    const skipped = factor === SKIP_STEP;
    if (skipped && this.step > this.settledStep) this.step--;
    this.settledStep = this.step;
    return { gradNorm, skipped };
  }

  /** The moments as named device tensors, for a snapshot that reads them with the weights. */
  momentTensors(): { name: string; shape: number[]; tensor: Tensor<'f32'> }[] {
    return this.model.params.list.flatMap((p, i) => {
      const [m, v] = momentNames(p.spec);
      const shape = [...p.spec.shape];
      return [
        { name: m, shape, tensor: this.moments[i].m },
        { name: v, shape, tensor: this.moments[i].v },
      ];
    });
  }

  /** Continue from a saved state (checked first: a bad one changes nothing). */
  restoreState(state: OptimizerState): void {
    const values = checkOptimizerState(
      this.model.params.list.map((p) => p.spec),
      state,
    );
    this.momentTensors().forEach((n, i) => this.model.be.write(n.tensor, values[i]));
    this.step = state.step;
    this.settledStep = state.step;
  }

  free(): void {
    const be = this.model.be;
    for (const { m, v } of this.moments) {
      be.free(m);
      be.free(v);
    }
    be.free(this.slots);
    be.free(this.clip);
  }
}

/** The names of a parameter's first and second moment in a saved optimizer state. */
function momentNames(spec: ParamSpec): [string, string] {
  return [`adam.m.${spec.name}`, `adam.v.${spec.name}`];
}

/**
 * Throws, naming the problem, unless `state` is AdamW's state for parameters `specs`: a step
 * count, and both moments of every parameter, shaped as it, finite (the second one ≥ 0).
 * Returns the moments in AdamW's order (m, v per parameter).
 */
export function checkOptimizerState(
  specs: readonly ParamSpec[],
  state: OptimizerState,
): Float32Array[] {
  if (!Number.isInteger(state.step) || state.step < 0)
    throw new CheckpointError(`optimizer step ${state.step} is not a count`);
  if (state.moments.length !== 2 * specs.length)
    throw new CheckpointError(
      `the optimizer state has ${state.moments.length} tensors, the model needs ${2 * specs.length}`,
    );
  const given = new Map(state.moments.map((t) => [t.name, t]));
  return specs.flatMap((spec) =>
    momentNames(spec).map((name, second) => {
      const t = given.get(name);
      if (!t) throw new CheckpointError(`optimizer tensor "${name}" is missing`);
      const size = numel(spec.shape);
      if (!(t.data instanceof Float32Array) || t.data.length !== size)
        throw new CheckpointError(
          `optimizer tensor "${name}" has ${t.data?.length} values, the model needs ${size}`,
        );
      for (let i = 0; i < t.data.length; i++) {
        const x = t.data[i];
        if (!Number.isFinite(x) || (second && x < 0))
          throw new CheckpointError(`optimizer tensor "${name}": element ${i} is ${x}`);
      }
      return t.data;
    }),
  );
}
