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
import { UsageError, runCli } from './flags.ts';
import {
  MODEL_COMMAND,
  MODEL_FLAGS,
  MODEL_SUMMARY,
  parseModelArgs,
  type ForwardArgs,
} from './model-args.ts';
import { forwardProbe, probeTokens } from './model-probe.ts';
import { probeReport, type ForwardReport } from './model-report.ts';

async function openBackend(kind: Backend['kind']): Promise<Backend> {
  if (kind === 'cpu') return new CpuBackend();
  let r;
  try {
    // Dawn is loaded only when asked for.
    const { nodeGpu } = await import('../src/engine/webgpu/node-gpu.ts');
    r = await WebGpuBackend.create(nodeGpu());
  } catch (e) {
    throw new Error(
      `WebGPU is unavailable: the webgpu package (Dawn) did not load: ${(e as Error).message}`,
      { cause: e },
    );
  }
  if (!r.ok) throw new Error(`WebGPU is unavailable: ${r.reason}`);
  return r.backend;
}

/** The probe: a UsageError (exit 2) for a bad text, an Error (exit 1) when the checkpoint or backend fails. */
async function forward(args: ForwardArgs): Promise<void> {
  let tokens: Uint32Array;
  try {
    tokens = probeTokens(args.text);
  } catch (e) {
    if (e instanceof VocabularyError)
      throw new UsageError(`--text: ${e.message} (vocabulary: ${VOCAB.join('')})`, { cause: e });
    throw e;
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(args.checkpoint));
  } catch (e) {
    throw new Error(`cannot read ${args.checkpoint}: ${(e as Error).message}`, { cause: e });
  }

  const be = await openBackend(args.backend);
  try {
    let loaded;
    try {
      loaded = loadCheckpoint(be, bytes);
    } catch (e) {
      if (e instanceof CheckpointError)
        throw new Error(`${args.checkpoint}: ${e.message}`, { cause: e });
      throw e;
    }
    const { model, metadata } = loaded;
    const config = model.config;
    if (config.vocabSize !== VOCAB_SIZE) {
      throw new Error(
        `${args.checkpoint}: its vocabulary has ${config.vocabSize} tokens, the task tokenizer ${VOCAB_SIZE}`,
      );
    }
    if (tokens.length > config.contextLength) {
      throw new UsageError(
        `--text: ${tokens.length} tokens (begin token included) exceed the model's context of ${config.contextLength}`,
      );
    }
    if (tokens.length < 2)
      throw new UsageError('--text: the probe needs at least one character to predict');
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
}

await runCli(
  `npm run model -- ${MODEL_COMMAND}`,
  MODEL_SUMMARY,
  MODEL_FLAGS,
  forward,
  parseModelArgs,
);
// Dawn can keep the event loop alive after its device is destroyed.
process.exit(0);
