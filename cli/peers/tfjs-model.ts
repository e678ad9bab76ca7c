// The policy and its training step written in TF.js ops, for `npm run bench -- --peers`: the
// architecture of docs/model.md, on the weights and batch of a PeerWorkload, with autodiff by
// tf.variableGrads and the engine's AdamW (src/model/optimizer.ts) as tensor ops.
// The union package, not tfjs-core alone: only it registers the gradients of tfjs-core's ops.
import * as tf from '@tensorflow/tfjs';
import { LAYERNORM_EPS } from '../../src/engine/kernels/layernorm.ts';
import { ropeTable } from '../../src/engine/kernels/rope.ts';
import { placesOfRows } from '../../src/model/places.ts';
import type { PeerWorkload } from './workload.ts';

const f32 = Math.fround;
/** Masked attention scores: exp() of it is 0 in float32, and unlike −∞ it never makes a NaN. */
const MASKED = -1e9;

type Inputs = Pick<PeerWorkload, 'config' | 'tensors' | 'batch' | 'weights' | 'optimizer'>;

export class TfPolicy {
  private readonly params: tf.Variable[];
  private readonly byName = new Map<string, tf.Variable>();
  private readonly m: tf.Variable[];
  private readonly v: tf.Variable[];
  /** Tensors of the batch and tables that every step reads. */
  private readonly fixed: {
    /** One-hot rows [B·T, V] of the tokens, and of the digit places where the model has them. */
    tokens: tf.Tensor;
    places: tf.Tensor | null;
    targets: tf.Tensor;
    weights: tf.Tensor;
    cos: tf.Tensor;
    sin: tf.Tensor;
    mask: tf.Tensor;
  };
  private step = 0;

  constructor(private readonly w: Inputs) {
    const { config: c, batch } = w;
    if (batch.start.some((s) => s !== 0))
      throw new Error('TfPolicy runs unpadded batches only (every start 0)');
    // tidy: a variable shares its initial tensor's data, which would otherwise outlive dispose().
    this.params = w.tensors.map((t) => {
      const p = tf.tidy(() => tf.variable(tf.tensor(t.data, t.shape, 'float32'), true));
      this.byName.set(t.name, p);
      return p;
    });
    this.m = this.params.map((p) => tf.tidy(() => tf.variable(tf.zerosLike(p), false)));
    this.v = this.params.map((p) => tf.tidy(() => tf.variable(tf.zerosLike(p), false)));

    const { T } = batch;
    const dh = c.dModel / c.heads;
    const half = dh / 2;
    // The engine's table (angles in float64, then cos/sin rounded to float32), de-interleaved.
    const table = ropeTable(T, dh, c.ropeBase);
    const cos = new Float32Array(T * half);
    const sin = new Float32Array(T * half);
    for (let i = 0; i < T * half; i++) {
      cos[i] = c.rope === false ? 1 : table[2 * i];
      sin[i] = c.rope === false ? 0 : table[2 * i + 1];
    }
    const mask = new Float32Array(T * T);
    for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) mask[i * T + j] = MASKED;
    const oneHot = (ids: Uint32Array, n: number) =>
      tf.tidy(() => tf.cast(tf.oneHot(tf.tensor1d(Int32Array.from(ids), 'int32'), n), 'float32'));
    this.fixed = {
      tokens: oneHot(batch.tokens, c.vocabSize),
      places: c.places
        ? oneHot(placesOfRows(batch.tokens, T, c.places), c.places.maxPlace + 1)
        : null,
      targets: oneHot(batch.targets, c.vocabSize),
      weights: tf.tensor1d(w.weights),
      cos: tf.tensor2d(cos, [T, half]),
      sin: tf.tensor2d(sin, [T, half]),
      mask: tf.tensor2d(mask, [T, T]),
    };
  }

  private p(name: string): tf.Variable {
    const p = this.byName.get(name);
    if (!p) throw new Error(`TfPolicy: no tensor "${name}"`);
    return p;
  }

  /** L = −Σ w·log p(target) of the batch under the current weights. */
  loss(): tf.Scalar {
    const { config: c, batch } = this.w;
    const { B, T } = batch;
    const d = c.dModel;
    const H = c.heads;
    const dh = d / H;
    const R = B * T;
    const x0 = this.fixed;

    const linear = (x: tf.Tensor, name: string, bias = true): tf.Tensor => {
      const y = tf.matMul(x, this.p(`${name}.weight`), false, true);
      return bias ? tf.add(y, this.p(`${name}.bias`)) : y;
    };
    const layerNorm = (x: tf.Tensor, name: string): tf.Tensor => {
      const { mean, variance } = tf.moments(x, -1, true);
      const xhat = tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, LAYERNORM_EPS)));
      return tf.add(tf.mul(xhat, this.p(`${name}.weight`)), this.p(`${name}.bias`));
    };
    // [R, d] → [B, H, T, dh]: head h is columns h·dh … (h+1)·dh − 1.
    const heads = (x: tf.Tensor) => tf.transpose(tf.reshape(x, [B, T, H, dh]), [0, 2, 1, 3]);
    // GPT-NeoX pairs: dimension i rotates with i + dh/2.
    const rope = (x: tf.Tensor) => {
      const [a, b] = tf.split(x, 2, 3);
      return tf.concat(
        [
          tf.sub(tf.mul(a, x0.cos), tf.mul(b, x0.sin)),
          tf.add(tf.mul(a, x0.sin), tf.mul(b, x0.cos)),
        ],
        3,
      );
    };
    // tanh GELU; x·x² rather than pow(x, 3), which a GPU may compute as exp(3·log x), NaN for x < 0.
    const gelu = (x: tf.Tensor) => {
      const cube = tf.mul(tf.square(x), x);
      const inner = tf.mul(tf.add(x, tf.mul(cube, 0.044715)), Math.sqrt(2 / Math.PI));
      return tf.mul(tf.mul(x, 0.5), tf.add(tf.tanh(inner), 1));
    };

    // Embeddings as one-hot products, exact (one term per sum) and ~2% of the step's work: the
    // gradient of tf.gather needs UnsortedSegmentSum, which the wasm backend lacks.
    let x = tf.matMul(x0.tokens, this.p('tok_emb.weight'));
    if (x0.places) x = tf.add(x, tf.matMul(x0.places, this.p('place_emb.weight')));
    for (let l = 0; l < c.layers; l++) {
      const pre = `blocks.${l}`;
      const [q, k, v] = tf.split(linear(layerNorm(x, `${pre}.ln1`), `${pre}.attn.qkv`), 3, 1);
      const scores = tf.add(
        tf.mul(tf.matMul(rope(heads(q)), rope(heads(k)), false, true), 1 / Math.sqrt(dh)),
        x0.mask,
      );
      const att = tf.matMul(tf.softmax(scores), heads(v));
      const merged = tf.reshape(tf.transpose(att, [0, 2, 1, 3]), [R, d]);
      x = tf.add(x, linear(merged, `${pre}.attn.proj`));
      const hidden = gelu(linear(layerNorm(x, `${pre}.ln2`), `${pre}.mlp.fc`));
      x = tf.add(x, linear(hidden, `${pre}.mlp.proj`));
    }
    const logits = linear(layerNorm(x, 'ln_f'), 'lm_head', false);
    const logp = tf.sum(tf.mul(tf.logSoftmax(logits), x0.targets), 1);
    return tf.neg(tf.sum(tf.mul(logp, x0.weights)));
  }

  /**
   * One training step: the loss and its gradients, then AdamW as src/model/optimizer.ts does it —
   * clip to the global gradient norm (factor maxGradNorm / (norm + 1e-6) when the norm is
   * larger), bias-corrected moments, eps outside the square root, weight decay decoupled and on
   * matrices only. Returns the loss before the update; the caller disposes it.
   */
  trainStep(): tf.Scalar {
    const { value, grads } = tf.variableGrads(() => this.loss(), this.params);
    const o = this.w.optimizer;
    const t = ++this.step;
    tf.tidy(() => {
      const g = this.params.map((p) => grads[p.name]);
      // Pairwise adds, not tf.addN: WebGPU's AddN binds every input at once, and a model's
      // tensors outnumber the 8 storage buffers a shader may bind.
      const norm = tf.sqrt(g.map((x) => tf.sum(tf.square(x))).reduce((a, b) => tf.add(a, b)));
      const clip = o.maxGradNorm;
      const scale =
        clip > 0
          ? tf.where(tf.greater(norm, clip), tf.div(f32(clip), tf.add(norm, 1e-6)), tf.scalar(1))
          : tf.scalar(1);
      // Hyperparameters rounded to float32 as the engine's kernels receive them.
      const [b1, b2, lr, eps] = [f32(o.beta1), f32(o.beta2), f32(o.lr), f32(o.eps)];
      const bc1 = f32(1 - o.beta1 ** t);
      const bc2 = f32(1 - o.beta2 ** t);
      this.params.forEach((p, i) => {
        const gi = tf.mul(g[i], scale);
        const m = tf.add(tf.mul(this.m[i], b1), tf.mul(gi, 1 - b1));
        const v = tf.add(tf.mul(this.v[i], b2), tf.mul(tf.square(gi), 1 - b2));
        this.m[i].assign(m);
        this.v[i].assign(v);
        let update = tf.div(tf.div(m, bc1), tf.add(tf.sqrt(tf.div(v, bc2)), eps));
        if (p.rank >= 2) update = tf.add(update, tf.mul(p, f32(o.weightDecay)));
        p.assign(tf.sub(p, tf.mul(update, lr)));
      });
    });
    tf.dispose(Object.values(grads));
    return value;
  }

  dispose(): void {
    tf.dispose([...this.params, ...this.m, ...this.v]);
    tf.dispose(Object.values(this.fixed).filter((t): t is tf.Tensor => t !== null));
  }
}
