// `npm run model -- forward --checkpoint FILE --text TEXT [--backend cpu|webgpu] [--json]`:
// loss, last-position logits and gradient norms of a checkpoint on one text.
import { readFile } from 'node:fs/promises';
import type { Backend } from '../src/engine/backend.ts';
import { CpuBackend } from '../src/engine/cpu/cpu-backend.ts';
import { WebGpuBackend } from '../src/engine/webgpu/webgpu-backend.ts';
import { loadCheckpoint } from '../src/model/checkpoint.ts';
import { parameterCount } from '../src/model/param-spec.ts';
import { CheckpointError } from '../src/model/safetensors.ts';
import { VocabularyError } from '../src/tasks/errors.ts';
import { VOCAB, VOCAB_SIZE, decode } from '../src/tasks/tokenizer.ts';
import { MODEL_USAGE, parseModelArgs } from './model-args.ts';
import { forwardProbe, probeTokens } from './model-probe.ts';
import { probeReport, type ForwardReport } from './model-report.ts';

/** Exit 2 for a wrong command line (flags, text), 1 when the checkpoint or backend fails. */
function fail(message: string, code: 1 | 2): never {
  console.error(`model: ${message}`);
  process.exit(code);
}

async function openBackend(kind: Backend['kind']): Promise<Backend> {
  if (kind === 'cpu') return new CpuBackend();
  try {
    // Dawn is loaded only when asked for.
    const { nodeGpu } = await import('../src/engine/webgpu/node-gpu.ts');
    const r = await WebGpuBackend.create(nodeGpu());
    if (r.ok) return r.backend;
    return fail(`WebGPU is unavailable: ${r.reason}`, 1);
  } catch (e) {
    return fail(
      `WebGPU is unavailable: the webgpu package (Dawn) did not load: ${(e as Error).message}`,
      1,
    );
  }
}

const cmd = parseModelArgs(process.argv.slice(2));
if (cmd.kind === 'help') {
  console.log(MODEL_USAGE);
  process.exit(0);
}
if (cmd.kind === 'error') fail(`${cmd.message}\n\n${MODEL_USAGE}`, 2);
const args = cmd.args;

let tokens: Uint32Array;
try {
  tokens = probeTokens(args.text);
} catch (e) {
  if (e instanceof VocabularyError) fail(`--text: ${e.message} (vocabulary: ${VOCAB.join('')})`, 2);
  throw e;
}
let bytes: Uint8Array;
try {
  bytes = new Uint8Array(await readFile(args.checkpoint));
} catch (e) {
  fail(`cannot read ${args.checkpoint}: ${(e as Error).message}`, 1);
}

const be = await openBackend(args.backend);
try {
  let loaded;
  try {
    loaded = loadCheckpoint(be, bytes);
  } catch (e) {
    if (e instanceof CheckpointError) fail(`${args.checkpoint}: ${e.message}`, 1);
    throw e;
  }
  const { model, metadata } = loaded;
  const config = model.config;
  if (config.vocabSize !== VOCAB_SIZE) {
    fail(
      `${args.checkpoint}: its vocabulary has ${config.vocabSize} tokens, the task tokenizer ${VOCAB_SIZE}`,
      1,
    );
  }
  if (tokens.length > config.contextLength) {
    fail(
      `--text: ${tokens.length} tokens (begin token included) exceed the model's context of ${config.contextLength}`,
      2,
    );
  }
  if (tokens.length < 2) fail('--text: the probe needs at least one character to predict', 2);
  const probe = await forwardProbe(model, tokens);
  const result: ForwardReport = {
    checkpoint: args.checkpoint,
    format: metadata.format,
    config,
    parameters: parameterCount(config),
    backend: be.name,
    text: decode(tokens),
    tokens: probe.tokens,
    loss: probe.loss,
    logits: Array.from(probe.logits),
    gradNorms: Object.fromEntries(probe.gradNorms.map((g) => [g.name, g.norm])),
    gradNorm: probe.gradNorm,
  };
  console.log(args.json ? JSON.stringify(result) : probeReport(result));
} finally {
  be.destroy();
}
// Dawn can keep the event loop alive after its device is destroyed.
process.exit(0);
