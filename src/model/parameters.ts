import type { Backend, Tensor } from '../engine/backend.ts';
import { normals } from '../engine/random.ts';
import type { ModelConfig } from './config.ts';
import { numel, paramSpecs, type ParamSpec } from './param-spec.ts';
import { CheckpointError, type NamedTensor } from './safetensors.ts';

/** One parameter on the device, with its gradient buffer. */
export interface Param {
  spec: ParamSpec;
  value: Tensor<'f32'>;
  grad: Tensor<'f32'>;
}

/**
 * The model's parameters and gradients on a backend, addressed by checkpoint name. Values are
 * either initialised from a seed or taken from named host tensors (a checkpoint) after every
 * name and shape has been checked, so a bad checkpoint never half-loads.
 */
export class ParameterStore {
  readonly list: Param[];
  private readonly byName = new Map<string, Param>();

  private constructor(
    readonly be: Backend,
    readonly config: ModelConfig,
    values: Float32Array[],
  ) {
    this.list = paramSpecs(config).map((spec, i) => {
      const n = numel(spec.shape);
      const value = be.alloc(n, 'f32', spec.name);
      be.write(value, values[i]);
      return { spec, value, grad: be.alloc(n, 'f32', `grad.${spec.name}`) };
    });
    for (const p of this.list) this.byName.set(p.spec.name, p);
  }

  static init(be: Backend, config: ModelConfig, seed: number): ParameterStore {
    const values = paramSpecs(config).map((spec, i) => {
      const n = numel(spec.shape);
      if ('normal' in spec.init) return normals((seed >>> 0) * 1009 + i, n, spec.init.normal);
      return new Float32Array(n).fill(spec.init.constant);
    });
    return new ParameterStore(be, config, values);
  }

  /** Validates names, shapes and completeness before touching the device. */
  static fromTensors(
    be: Backend,
    config: ModelConfig,
    tensors: readonly NamedTensor[],
  ): ParameterStore {
    return new ParameterStore(be, config, checkedValues(config, tensors));
  }

  get(name: string): Param {
    const p = this.byName.get(name);
    if (!p) throw new Error(`no parameter "${name}"`);
    return p;
  }

  /** Every value as a named host tensor, in one read. */
  async toTensors(): Promise<NamedTensor[]> {
    const data = await this.be.readMany(this.list.map((p) => p.value));
    return this.list.map((p, i) => ({
      name: p.spec.name,
      shape: [...p.spec.shape],
      data: data[i],
    }));
  }

  /** Throws, naming the problem, unless `tensors` are exactly this model's parameters, finite. */
  check(tensors: readonly NamedTensor[]): void {
    checkedValues(this.config, tensors);
  }

  /** Every value from named host tensors (a snapshot), checked as fromTensors checks them. */
  assign(tensors: readonly NamedTensor[]): void {
    const values = checkedValues(this.config, tensors);
    this.list.forEach((p, i) => this.be.write(p.value, values[i]));
  }

  free(): void {
    for (const p of this.list) {
      this.be.free(p.value);
      this.be.free(p.grad);
    }
  }
}

/** The value of every parameter, in spec order, once names, shapes and values have been checked. */
function checkedValues(config: ModelConfig, tensors: readonly NamedTensor[]): Float32Array[] {
  const given = new Map(tensors.map((t) => [t.name, t]));
  const specs = paramSpecs(config);
  const values = specs.map((spec) => {
    const t = given.get(spec.name);
    if (!t) throw new CheckpointError(`tensor "${spec.name}" is missing`);
    if (t.shape.length !== spec.shape.length || t.shape.some((n, i) => n !== spec.shape[i])) {
      throw new CheckpointError(
        `tensor "${spec.name}": shape ${JSON.stringify(t.shape)}, the model needs ${JSON.stringify(spec.shape)}`,
      );
    }
    for (let i = 0; i < t.data.length; i++) {
      if (!Number.isFinite(t.data[i]))
        throw new CheckpointError(`tensor "${spec.name}": element ${i} is not finite`);
    }
    return t.data;
  });
  const known = new Set(specs.map((s) => s.name));
  const extra = tensors.find((t) => !known.has(t.name));
  if (extra) throw new CheckpointError(`tensor "${extra.name}" is not part of this model`);
  return values;
}
