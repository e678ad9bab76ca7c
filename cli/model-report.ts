import type { ModelConfig } from '../src/model/config.ts';
import { VOCAB } from '../src/tasks/tokenizer.ts';

/** What `model forward` prints: as one JSON object with --json, as text otherwise. */
export interface ForwardReport {
  checkpoint: string;
  format: string | undefined;
  config: ModelConfig;
  parameters: number;
  backend: string;
  /** The sequence that ran, begin token included. */
  text: string;
  tokens: number[];
  loss: number;
  /** Logits at the last position, one per vocabulary entry. */
  logits: number[];
  gradNorms: Record<string, number>;
  gradNorm: number;
}

function softmax(logits: readonly number[]): number[] {
  const m = Math.max(...logits);
  const e = logits.map((x) => Math.exp(x - m));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
}

/** The human-readable form: the figures, the five likeliest next tokens, every gradient norm. */
export function probeReport(r: ForwardReport): string {
  const c = r.config;
  const p = softmax(r.logits);
  const top = p
    .map((prob, id) => ({ id, prob }))
    .sort((a, b) => b.prob - a.prob)
    .slice(0, 5)
    .map((t) => `${JSON.stringify(VOCAB[t.id])} ${t.prob.toFixed(3)}`);
  const width = Math.max(...Object.keys(r.gradNorms).map((n) => n.length));
  const logits = r.logits.map((x, id) => `${VOCAB[id]} ${x.toFixed(4)}`);
  const rows: string[] = [];
  for (let i = 0; i < logits.length; i += 8) rows.push(`  ${logits.slice(i, i + 8).join('  ')}`);
  return [
    `checkpoint  ${r.checkpoint} (${r.format ?? 'no format'})`,
    `model       ${c.layers} layers, d_model ${c.dModel}, ${c.heads} heads, MLP ×${c.mlpRatio}, ` +
      `vocab ${c.vocabSize}, context ${c.contextLength}; ${r.parameters.toLocaleString('en-US')} parameters`,
    `backend     ${r.backend}`,
    `text        ${r.text} (${r.tokens.length} tokens, begin token included)`,
    `loss        ${r.loss.toFixed(6)} (mean next-token NLL over ${r.tokens.length - 1} predictions; ` +
      `perplexity ${Math.exp(r.loss).toFixed(3)})`,
    `next token  ${top.join(', ')}`,
    '',
    'logits at the last position:',
    ...rows,
    '',
    `gradient norms of the loss (all together: ${r.gradNorm.toExponential(4)}):`,
    ...Object.entries(r.gradNorms).map(([n, g]) => `  ${n.padEnd(width)}  ${g.toExponential(4)}`),
  ].join('\n');
}
