import type { Backend, Tensor } from '../engine/backend.ts';
import type { ModelConfig } from './config.ts';

/** Activations of one transformer block that the backward pass reads. */
export interface BlockActivations {
  ln1: Tensor;
  ln1Mean: Tensor;
  ln1Rstd: Tensor;
  qkv: Tensor;
  /** q [B, H, T, dh]; k and v are the block's K/V cache [B, H, cap, dh]. */
  q: Tensor;
  k: Tensor;
  v: Tensor;
  /** Attention probabilities [B, H, T, T]; training only. */
  probs: Tensor | null;
  att: Tensor;
  attProj: Tensor;
  /** Residual stream after the attention sub-block. */
  mid: Tensor;
  ln2: Tensor;
  ln2Mean: Tensor;
  ln2Rstd: Tensor;
  fcPre: Tensor;
  fcAct: Tensor;
  mlpOut: Tensor;
}

/** Buffer sizes: rows = B·Tq query rows, cacheRows = B·cap key rows per block. */
export interface WorkspaceSize {
  rows: number;
  cacheRows: number;
  /** B·T·T attention entries per head, training only (0 otherwise). */
  probsPerHead: number;
}

/**
 * Device buffers for one forward (and, when training, backward) pass. Training keeps every
 * block's activations; inference shares one set across blocks and keeps only the K/V caches
 * per block. Buffers are sized by capacity, so a workspace serves any smaller batch.
 */
export class Workspace {
  readonly tokens: Tensor;
  readonly targets: Tensor;
  readonly start: Tensor;
  /** Digit places of the tokens and the two embeddings summed into xs[0], when the model has them. */
  readonly places: { place: Tensor; tokEmb: Tensor; placeEmb: Tensor } | null;
  /** Residual stream entering block l is xs[l]; xs[layers] leaves the last block. */
  readonly xs: Tensor[];
  readonly blocks: BlockActivations[];
  readonly lnf: Tensor;
  readonly lnfMean: Tensor;
  readonly lnfRstd: Tensor;
  readonly logits: Tensor;
  readonly logp: Tensor;
  readonly lse: Tensor;
  readonly entropy: Tensor;
  /** Backward scratch (training only). */
  readonly grads: {
    weights: Tensor;
    dlogits: Tensor;
    dx: Tensor;
    dln: Tensor;
    dfc: Tensor;
    dfcPre: Tensor;
    datt: Tensor;
    dq: Tensor;
    dk: Tensor;
    dv: Tensor;
    dqkv: Tensor;
  } | null;
  private readonly owned: Tensor[] = [];

  constructor(
    private readonly be: Backend,
    readonly config: ModelConfig,
    readonly size: WorkspaceSize,
    readonly training: boolean,
    batch: number,
  ) {
    const c = config;
    const d = c.dModel;
    const f = c.mlpRatio * d;
    const R = size.rows;
    const a = (n: number, label: string, dtype: 'f32' | 'u32' = 'f32') => {
      const t = be.alloc(Math.max(1, n), dtype, label);
      this.owned.push(t);
      return t;
    };
    this.tokens = a(R, 'tokens', 'u32');
    this.targets = a(R, 'targets', 'u32');
    this.start = a(batch, 'start', 'u32');
    this.places = c.places
      ? {
          place: a(R, 'places', 'u32'),
          tokEmb: a(R * d, 'tok emb'),
          placeEmb: a(R * d, 'place emb'),
        }
      : null;
    const x = a(R * d, 'x0');
    this.xs = [x];
    const shared = training ? null : this.blockBuffers(a, R, f, -1);
    this.blocks = [];
    for (let l = 0; l < c.layers; l++) {
      const kv = { k: a(size.cacheRows * d, `k.${l}`), v: a(size.cacheRows * d, `v.${l}`) };
      this.blocks.push(shared ? { ...shared, ...kv } : { ...this.blockBuffers(a, R, f, l), ...kv });
      this.xs.push(training ? a(R * d, `x${l + 1}`) : x);
    }
    this.lnf = a(R * d, 'lnf');
    this.lnfMean = a(R, 'lnf.mean');
    this.lnfRstd = a(R, 'lnf.rstd');
    this.logits = a(R * c.vocabSize, 'logits');
    this.logp = a(R, 'logp');
    this.lse = a(R, 'lse');
    this.entropy = a(R, 'entropy');
    this.grads = training
      ? {
          weights: a(R, 'token weights'),
          dlogits: a(R * c.vocabSize, 'dlogits'),
          dx: a(R * d, 'dx'),
          dln: a(R * d, 'dln'),
          dfc: a(R * f, 'dfc'),
          dfcPre: a(R * f, 'dfc.pre'),
          datt: a(R * d, 'datt'),
          dq: a(R * d, 'dq'),
          dk: a(R * d, 'dk'),
          dv: a(R * d, 'dv'),
          dqkv: a(R * 3 * d, 'dqkv'),
        }
      : null;
  }

  private blockBuffers(
    a: (n: number, label: string) => Tensor,
    R: number,
    f: number,
    l: number,
  ): Omit<BlockActivations, 'k' | 'v'> {
    const d = this.config.dModel;
    const s = l < 0 ? '' : `.${l}`;
    return {
      ln1: a(R * d, `ln1${s}`),
      ln1Mean: a(R, `ln1.mean${s}`),
      ln1Rstd: a(R, `ln1.rstd${s}`),
      qkv: a(R * 3 * d, `qkv${s}`),
      q: a(R * d, `q${s}`),
      probs: this.training ? a(this.size.probsPerHead * this.config.heads, `probs${s}`) : null,
      att: a(R * d, `att${s}`),
      attProj: a(R * d, `att.proj${s}`),
      mid: a(R * d, `mid${s}`),
      ln2: a(R * d, `ln2${s}`),
      ln2Mean: a(R, `ln2.mean${s}`),
      ln2Rstd: a(R, `ln2.rstd${s}`),
      fcPre: a(R * f, `fc.pre${s}`),
      fcAct: a(R * f, `fc.act${s}`),
      mlpOut: a(R * d, `mlp.out${s}`),
    };
  }

  /** Whether this workspace can hold a pass of the given size. */
  fits(size: WorkspaceSize, batch: number): boolean {
    return (
      size.rows <= this.size.rows &&
      size.cacheRows <= this.size.cacheRows &&
      size.probsPerHead <= this.size.probsPerHead &&
      batch <= this.start.size
    );
  }

  free(): void {
    for (const t of this.owned) this.be.free(t);
  }
}
