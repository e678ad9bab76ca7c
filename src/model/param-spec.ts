import type { ModelConfig } from './config.ts';

/** One named parameter tensor: its shape (PyTorch layout) and how it is initialised. */
export interface ParamSpec {
  name: string;
  shape: readonly number[];
  init: { normal: number } | { constant: number };
  /** AdamW decays matrices only, not biases, norms' gains or offsets. */
  decay: boolean;
}

/**
 * Every parameter, in checkpoint order. Linear weights are [out, in] as in torch.nn.Linear, so a
 * checkpoint loads into a PyTorch module without transposes. Projections into the residual
 * stream start smaller (GPT-2: 0.02/√(2·layers)) so the stream's variance does not grow with
 * depth.
 */
export function paramSpecs(c: ModelConfig): ParamSpec[] {
  const d = c.dModel;
  const f = c.mlpRatio * d;
  const std = 0.02;
  const residualStd = std / Math.sqrt(2 * c.layers);
  const w = (name: string, shape: number[], s = std): ParamSpec => ({
    name,
    shape,
    init: { normal: s },
    decay: true,
  });
  const vec = (name: string, n: number, value: number): ParamSpec => ({
    name,
    shape: [n],
    init: { constant: value },
    decay: false,
  });
  const specs: ParamSpec[] = [w('tok_emb.weight', [c.vocabSize, d])];
  if (c.places) specs.push(w('place_emb.weight', [c.places.maxPlace + 1, d]));
  for (let l = 0; l < c.layers; l++) {
    const p = `blocks.${l}`;
    specs.push(
      vec(`${p}.ln1.weight`, d, 1),
      vec(`${p}.ln1.bias`, d, 0),
      w(`${p}.attn.qkv.weight`, [3 * d, d]),
      vec(`${p}.attn.qkv.bias`, 3 * d, 0),
      w(`${p}.attn.proj.weight`, [d, d], residualStd),
      vec(`${p}.attn.proj.bias`, d, 0),
      vec(`${p}.ln2.weight`, d, 1),
      vec(`${p}.ln2.bias`, d, 0),
      w(`${p}.mlp.fc.weight`, [f, d]),
      vec(`${p}.mlp.fc.bias`, f, 0),
      w(`${p}.mlp.proj.weight`, [d, f], residualStd),
      vec(`${p}.mlp.proj.bias`, d, 0),
    );
  }
  specs.push(
    vec('ln_f.weight', d, 1),
    vec('ln_f.bias', d, 0),
    w('lm_head.weight', [c.vocabSize, d]),
  );
  return specs;
}

export function numel(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

export function parameterCount(c: ModelConfig): number {
  return paramSpecs(c).reduce((n, s) => n + numel(s.shape), 0);
}
