import { attentionBackward } from '../engine/kernels/attention.ts';
import { embeddingBackward } from '../engine/kernels/embedding.ts';
import { geluBackward } from '../engine/kernels/gelu.ts';
import { layerNormBackward } from '../engine/kernels/layernorm.ts';
import { logSoftmaxBackward } from '../engine/kernels/logsoftmax.ts';
import { ropeBackward } from '../engine/kernels/rope.ts';
import type { Tensor } from '../engine/backend.ts';
import { headDim } from './config.ts';
import type { ModelContext } from './forward.ts';
import { linearBackward } from './layers.ts';
import type { Workspace } from './workspace.ts';

/**
 * Gradients of L = −Σ_n w_n·log p(target_n) for every parameter, after a training forward over
 * the same workspace (B sequences of T tokens, weights already in ws.grads.weights). The residual
 * stream's gradient lives in one buffer that each block's LayerNorm backward adds into.
 */
export function backward(
  ctx: ModelContext,
  ws: Workspace,
  B: number,
  T: number,
  accumulate: boolean,
): void {
  const { be, config: c, params } = ctx;
  const g = ws.grads;
  if (!g) throw new Error('backward needs a training workspace');
  const d = c.dModel;
  const R = B * T;
  const p = (name: string) => params.get(name);
  const ln = (x: string) => ({ gamma: p(`${x}.weight`), beta: p(`${x}.bias`) });
  const lnBackward = (
    x: typeof ws.lnf,
    mean: typeof ws.lnf,
    rstd: typeof ws.lnf,
    dy: typeof ws.lnf,
    names: ReturnType<typeof ln>,
    accumulateInput: boolean,
  ) =>
    layerNormBackward(
      be,
      {
        x,
        gamma: names.gamma.value,
        mean,
        rstd,
        dy,
        dx: g.dx,
        dgamma: names.gamma.grad,
        dbeta: names.beta.grad,
      },
      { rows: R, dim: d, accumulateInput, accumulateParams: accumulate },
    );
  const blockLinearBackward = (name: string, x: Tensor, dy: Tensor, dx: Tensor) =>
    linearBackward(be, { dy, x, w: p(`${name}.weight`), b: p(`${name}.bias`), dx }, R, accumulate);

  logSoftmaxBackward(
    be,
    { logits: ws.logits, targets: ws.targets, lse: ws.lse, weights: g.weights, dlogits: g.dlogits },
    { rows: R, vocab: c.vocabSize },
  );
  linearBackward(
    be,
    { dy: g.dlogits, x: ws.lnf, w: p('lm_head.weight'), b: null, dx: g.dln },
    R,
    accumulate,
  );
  lnBackward(ws.xs[c.layers], ws.lnfMean, ws.lnfRstd, g.dln, ln('ln_f'), false);

  for (let l = c.layers - 1; l >= 0; l--) {
    const a = ws.blocks[l];
    const pre = `blocks.${l}`;
    // MLP sub-block: x_{l+1} = mid + proj(gelu(fc(ln2(mid)))).
    blockLinearBackward(`${pre}.mlp.proj`, a.fcAct, g.dx, g.dfc);
    geluBackward(be, g.dfcPre, a.fcPre, g.dfc, { n: R * c.mlpRatio * d });
    blockLinearBackward(`${pre}.mlp.fc`, a.ln2, g.dfcPre, g.dln);
    lnBackward(a.mid, a.ln2Mean, a.ln2Rstd, g.dln, ln(`${pre}.ln2`), true);
    // Attention sub-block: mid = x_l + proj(attention(rope(qkv(ln1(x_l))))).
    blockLinearBackward(`${pre}.attn.proj`, a.att, g.dx, g.datt);
    if (!a.probs) throw new Error('training workspace without attention probabilities');
    attentionBackward(
      be,
      {
        q: a.q,
        k: a.k,
        v: a.v,
        probs: a.probs,
        out: a.att,
        dout: g.datt,
        dq: g.dq,
        dk: g.dk,
        dv: g.dv,
      },
      { B, T, H: c.heads, dh: headDim(c) },
    );
    ropeBackward(
      be,
      { dq: g.dq, dk: g.dk, dv: g.dv, start: ws.start, table: ctx.rope, dqkv: g.dqkv },
      { B, Tq: T, H: c.heads, dh: headDim(c), tableLen: c.contextLength },
    );
    blockLinearBackward(`${pre}.attn.qkv`, a.ln1, g.dqkv, g.dln);
    lnBackward(ws.xs[l], a.ln1Mean, a.ln1Rstd, g.dln, ln(`${pre}.ln1`), true);
  }
  const emb = p('tok_emb.weight');
  embeddingBackward(be, emb.grad, ws.tokens, g.dx, {
    n: R,
    dim: d,
    vocab: c.vocabSize,
    accumulate,
  });
  if (ws.places && c.places) {
    embeddingBackward(be, p('place_emb.weight').grad, ws.places.place, g.dx, {
      n: R,
      dim: d,
      vocab: c.places.maxPlace + 1,
      accumulate,
    });
  }
}
