import type { Backend, Tensor } from '../engine/backend.ts';
import { attentionForward } from '../engine/kernels/attention.ts';
import { add } from '../engine/kernels/elementwise.ts';
import { embeddingForward } from '../engine/kernels/embedding.ts';
import { gelu } from '../engine/kernels/gelu.ts';
import { layerNormForward } from '../engine/kernels/layernorm.ts';
import { logSoftmaxForward } from '../engine/kernels/logsoftmax.ts';
import { ropeForward } from '../engine/kernels/rope.ts';
import { headDim, type ModelConfig } from './config.ts';
import { linearForward } from './layers.ts';
import type { ParameterStore } from './parameters.ts';
import type { Workspace } from './workspace.ts';

/** What a pass covers: B sequences of Tq query rows at cache columns qOffset.., cache width cap. */
export interface PassShape {
  B: number;
  Tq: number;
  cap: number;
  qOffset: number;
}

export interface ModelContext {
  be: Backend;
  config: ModelConfig;
  params: ParameterStore;
  /** RoPE cos/sin table covering contextLength positions. */
  rope: Tensor;
}

/**
 * Pre-LayerNorm decoder forward over the tokens already in ws.tokens: embeddings, blocks of
 * causal self-attention and GELU MLP with residual connections, final LayerNorm, LM head. With
 * `withTargets`, also log p(target) and entropy per row (training and scoring).
 */
export function forward(
  ctx: ModelContext,
  ws: Workspace,
  s: PassShape,
  withTargets: boolean,
): void {
  const { be, config: c, params } = ctx;
  const d = c.dModel;
  const R = s.B * s.Tq;
  const H = c.heads;
  const dh = headDim(c);
  const p = (name: string) => params.get(name);
  const layerNorm = (name: string, x: Tensor, y: Tensor, mean: Tensor, rstd: Tensor) =>
    layerNormForward(
      be,
      { x, gamma: p(`${name}.weight`).value, beta: p(`${name}.bias`).value, y, mean, rstd },
      { rows: R, dim: d },
    );
  const linear = (name: string, y: Tensor, x: Tensor) =>
    linearForward(be, y, x, p(`${name}.weight`), p(`${name}.bias`), R);

  const embed = (out: Tensor, ids: Tensor, table: string, vocab: number) =>
    embeddingForward(be, out, ids, p(table).value, { n: R, dim: d, vocab });
  if (ws.places && c.places) {
    embed(ws.places.tokEmb, ws.tokens, 'tok_emb.weight', c.vocabSize);
    embed(ws.places.placeEmb, ws.places.place, 'place_emb.weight', c.places.maxPlace + 1);
    add(be, ws.xs[0], ws.places.tokEmb, ws.places.placeEmb, { n: R * d });
  } else {
    embed(ws.xs[0], ws.tokens, 'tok_emb.weight', c.vocabSize);
  }
  for (let l = 0; l < c.layers; l++) {
    const a = ws.blocks[l];
    const pre = `blocks.${l}`;
    const x = ws.xs[l];
    layerNorm(`${pre}.ln1`, x, a.ln1, a.ln1Mean, a.ln1Rstd);
    linear(`${pre}.attn.qkv`, a.qkv, a.ln1);
    const shape = { B: s.B, Tq: s.Tq, H, dh, cap: s.cap, qOffset: s.qOffset };
    ropeForward(
      be,
      { qkv: a.qkv, start: ws.start, table: ctx.rope, q: a.q, kCache: a.k, vCache: a.v },
      { ...shape, tableLen: c.contextLength },
    );
    attentionForward(
      be,
      {
        q: a.q,
        kCache: a.k,
        vCache: a.v,
        start: ws.start,
        out: a.att,
        probs: a.probs ?? undefined,
      },
      shape,
    );
    linear(`${pre}.attn.proj`, a.attProj, a.att);
    add(be, a.mid, x, a.attProj, { n: R * d });
    layerNorm(`${pre}.ln2`, a.mid, a.ln2, a.ln2Mean, a.ln2Rstd);
    linear(`${pre}.mlp.fc`, a.fcPre, a.ln2);
    gelu(be, a.fcAct, a.fcPre, R * c.mlpRatio * d);
    linear(`${pre}.mlp.proj`, a.mlpOut, a.fcAct);
    add(be, ws.xs[l + 1], a.mid, a.mlpOut, { n: R * d });
  }
  layerNorm('ln_f', ws.xs[c.layers], ws.lnf, ws.lnfMean, ws.lnfRstd);
  linearForward(be, ws.logits, ws.lnf, p('lm_head.weight'), null, R);
  if (withTargets) {
    logSoftmaxForward(
      be,
      { logits: ws.logits, targets: ws.targets, logp: ws.logp, lse: ws.lse, entropy: ws.entropy },
      { rows: R, vocab: c.vocabSize },
    );
  }
}
