import type { Backend, Tensor } from '../engine/backend.ts';
import { ropeTable } from '../engine/kernels/rope.ts';
import { backward } from './backward.ts';
import type { TokenBatch } from './batch.ts';
import { validateConfig, type ModelConfig } from './config.ts';
import { forward, type ModelContext, type PassShape } from './forward.ts';
import { ParameterStore } from './parameters.ts';
import { placesOfRows } from './places.ts';
import { Workspace, type WorkspaceSize } from './workspace.ts';

export interface TokenStats {
  /** log p(targets[n]) per row. */
  logp: Float32Array;
  /** Entropy of the next-token distribution per row. */
  entropy: Float32Array;
}

/**
 * The policy: a decoder-only transformer on a Backend. Knows tensors and layers, nothing of RL.
 * Training is forwardTrain → backward(weights) (possibly several times) → an optimizer step.
 */
export class Transformer {
  readonly ctx: ModelContext;
  /**
   * The training workspace, the inference one, and a second inference one where generation
   * prefills prompts that several sequences share.
   */
  private readonly spaces: Record<'train' | 'main' | 'prefill', Workspace | null> = {
    train: null,
    main: null,
    prefill: null,
  };
  private trained: { B: number; T: number } | null = null;
  /** True until the first backward after an optimizer step: that one overwrites gradients. */
  private gradsFresh = true;

  constructor(
    readonly be: Backend,
    readonly params: ParameterStore,
  ) {
    const config = params.config;
    const dh = config.dModel / config.heads;
    const rope = be.alloc(config.contextLength * dh, 'f32', 'rope table');
    const table = ropeTable(config.contextLength, dh, config.ropeBase);
    // NoPE: cos 1, sin 0 everywhere, so the same kernels rotate nothing.
    if (config.rope === false)
      for (let i = 0; i < table.length; i++) table[i] = i % 2 === 0 ? 1 : 0;
    be.write(rope, table);
    this.ctx = { be, config, params, rope };
  }

  static create(be: Backend, config: ModelConfig, seed: number): Transformer {
    return new Transformer(be, ParameterStore.init(be, validateConfig(config), seed));
  }

  get config(): ModelConfig {
    return this.ctx.config;
  }

  private checkLength(T: number): void {
    if (T > this.config.contextLength) {
      throw new RangeError(
        `sequence of ${T} tokens exceeds the model's context of ${this.config.contextLength}`,
      );
    }
  }

  private workspace(kind: keyof Transformer['spaces'], size: WorkspaceSize, B: number): Workspace {
    const current = this.spaces[kind];
    if (current?.fits(size, B)) return current;
    current?.free();
    // Grow by half again so slowly growing batches do not reallocate every step.
    const grown: WorkspaceSize = {
      rows: Math.ceil(size.rows * 1.5),
      cacheRows: Math.ceil(size.cacheRows * 1.5),
      probsPerHead: Math.ceil(size.probsPerHead * 1.5),
    };
    const ws = new Workspace(this.be, this.config, grown, kind === 'train', Math.ceil(B * 1.5));
    this.spaces[kind] = ws;
    return ws;
  }

  private upload(ws: Workspace, batch: TokenBatch): void {
    this.writeTokens(ws, batch);
    this.be.write(ws.targets, batch.targets);
  }

  /**
   * Tokens, first columns and (when the model has them) digit places of a packed batch; returns
   * the places written, or null.
   */
  writeTokens(
    ws: Workspace,
    batch: Pick<TokenBatch, 'T' | 'tokens' | 'start'>,
  ): Uint32Array | null {
    this.be.write(ws.tokens, batch.tokens);
    this.be.write(ws.start, batch.start);
    const places = this.config.places;
    if (!ws.places || !places) return null;
    const placed = placesOfRows(batch.tokens, batch.T, places);
    this.be.write(ws.places.place, placed);
    return placed;
  }

  /** Forward pass that keeps what the backward needs; log-probs and entropy stay on the device. */
  forwardTrain(batch: TokenBatch): void {
    const { B, T } = batch;
    this.checkLength(T);
    const ws = this.workspace(
      'train',
      { rows: B * T, cacheRows: B * T, probsPerHead: B * T * T },
      B,
    );
    this.upload(ws, batch);
    forward(this.ctx, ws, { B, Tq: T, cap: T, qOffset: 0 }, true);
    this.trained = { B, T };
  }

  /** log p and entropy per row of the last forwardTrain. */
  async readTrainStats(): Promise<TokenStats> {
    const ws = this.spaces.train;
    if (!ws || !this.trained) throw new Error('readTrainStats before forwardTrain');
    const n = this.trained.B * this.trained.T;
    const [logp, entropy] = [await this.be.read(ws.logp), await this.be.read(ws.entropy)];
    return {
      logp: logp.subarray(0, n) as Float32Array,
      entropy: entropy.subarray(0, n) as Float32Array,
    };
  }

  /**
   * Add the gradients of L = −Σ_n w[n]·log p(targets[n]) for the last forwardTrain's batch to
   * the parameter gradients (the first backward after an optimizer step overwrites them). `w` is
   * uploaded when given; otherwise the kernels read what is already in weightsTensor(), e.g.
   * advantages computed on the device.
   */
  backward(weights?: Float32Array): void {
    const ws = this.spaces.train;
    if (!ws?.grads || !this.trained) throw new Error('backward before forwardTrain');
    const { B, T } = this.trained;
    if (weights) {
      if (weights.length !== B * T)
        throw new RangeError(`backward: ${weights.length} weights for ${B * T} rows`);
      this.be.write(ws.grads.weights, weights);
    }
    backward(this.ctx, ws, B, T, !this.gradsFresh);
    this.gradsFresh = false;
  }

  /** The device buffer of per-row loss weights read by the next backward(). */
  weightsTensor(): Tensor {
    const g = this.spaces.train?.grads;
    if (!g) throw new Error('weightsTensor before forwardTrain');
    return g.weights;
  }

  /** Called by the optimizer after it consumed the gradients. */
  gradientsConsumed(): void {
    this.gradsFresh = true;
  }

  /** Log-probabilities and entropy of a batch without keeping activations for a backward. */
  async score(batch: TokenBatch): Promise<TokenStats> {
    const { B, T } = batch;
    this.checkLength(T);
    const ws = this.inference({ rows: B * T, cacheRows: B * T, probsPerHead: 0 }, B);
    this.upload(ws, batch);
    forward(this.ctx, ws, { B, Tq: T, cap: T, qOffset: 0 }, true);
    const n = B * T;
    return {
      logp: (await this.be.read(ws.logp)).subarray(0, n) as Float32Array,
      entropy: (await this.be.read(ws.entropy)).subarray(0, n) as Float32Array,
    };
  }

  /**
   * An inference workspace of at least this size (generation, scoring); `prefill` gives the
   * second one, where generation prefills prompts shared by several sequences.
   */
  inference(size: WorkspaceSize, B: number, use: 'main' | 'prefill' = 'main'): Workspace {
    return this.workspace(use, size, B);
  }

  /** Run an inference pass over tokens already written into `ws` (used by generation). */
  runInference(ws: Workspace, shape: PassShape): void {
    this.checkLength(shape.cap);
    forward(this.ctx, ws, shape, false);
  }

  free(): void {
    for (const ws of Object.values(this.spaces)) ws?.free();
    this.be.free(this.ctx.rope);
    this.params.free();
  }
}
