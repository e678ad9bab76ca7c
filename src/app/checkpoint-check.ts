// A checkpoint file checked completely before anything changes: safetensors structure, the model
// config in its metadata, the vocabulary, every tensor's name and shape, finite values. Runs on
// the page (pure TypeScript; no backend is touched).
import { CHECKPOINT_FORMAT, checkpointConfig } from '../model/checkpoint.ts';
import type { ModelConfig } from '../model/config.ts';
import { numel, paramSpecs } from '../model/param-spec.ts';
import { CheckpointError, parseSafetensors } from '../model/safetensors.ts';
import { baseTaskOf, type BaseTask } from '../tasks/custom/base-task.ts';
import { baseReportOf, type BaseMeasure } from './custom-task/base-report.ts';
import { VOCAB_SIZE, tokenId } from '../tasks/tokenizer.ts';

export { CheckpointError, CHECKPOINT_FORMAT };

/**
 * Weights beyond this magnitude are refused: trained ones stay far below it (the shipped bases'
 * largest is about 4.3), and such values overflow the forward pass.
 */
export const MAX_WEIGHT_MAGNITUDE = 1000;

/** Files larger than this are refused before they are read. */
export const MAX_CHECKPOINT_BYTES = 64 * 1024 * 1024;

export interface CheckedCheckpoint extends BaseTask {
  config: ModelConfig;
  parameters: number;
  /** Training steps it has seen, when its metadata says so. */
  step: number | null;
  /** The literacy table and gate a warm-up in the page measured of it, where its file carries them. */
  report: BaseMeasure | null;
  /** Architecture options beyond the presets, e.g. "digit places 1–10, no RoPE"; '' for none. */
  options: string;
  metadata: Record<string, string>;
}

export function checkCheckpoint(bytes: Uint8Array): CheckedCheckpoint {
  if (bytes.length > MAX_CHECKPOINT_BYTES)
    throw new CheckpointError(
      `the file is ${(bytes.length / 2 ** 20).toFixed(1)} MiB; checkpoints here are at most ${MAX_CHECKPOINT_BYTES / 2 ** 20} MiB`,
    );
  const { tensors, metadata } = parseSafetensors(bytes);
  const config = checkpointConfig(metadata);
  if (config.vocabSize !== VOCAB_SIZE)
    throw new CheckpointError(
      `its vocabulary has ${config.vocabSize} tokens; this playground's tokenizer has ${VOCAB_SIZE}`,
    );
  const firstDigit = tokenId('0');
  if (config.places && config.places.firstDigit !== firstDigit)
    throw new CheckpointError(
      `its digit places start at token ${config.places.firstDigit}; this playground's digits start at ${firstDigit}`,
    );
  const given = new Map(tensors.map((t) => [t.name, t]));
  const specs = paramSpecs(config);
  let parameters = 0;
  for (const spec of specs) {
    const t = given.get(spec.name);
    if (!t) throw new CheckpointError(`tensor "${spec.name}" is missing`);
    if (t.shape.length !== spec.shape.length || t.shape.some((n, i) => n !== spec.shape[i]))
      throw new CheckpointError(
        `tensor "${spec.name}": shape ${JSON.stringify(t.shape)}, the model needs ${JSON.stringify(spec.shape)}`,
      );
    for (let i = 0; i < t.data.length; i++) {
      const x = t.data[i];
      if (!Number.isFinite(x))
        throw new CheckpointError(`tensor "${spec.name}": element ${i} is not finite`);
      if (Math.abs(x) > MAX_WEIGHT_MAGNITUDE)
        throw new CheckpointError(
          `tensor "${spec.name}": element ${i} is ${x.toPrecision(3)}, beyond any trained weight (the limit is ±${MAX_WEIGHT_MAGNITUDE})`,
        );
    }
    parameters += numel(spec.shape);
  }
  const known = new Set(specs.map((s) => s.name));
  const extra = tensors.find((t) => !known.has(t.name));
  if (extra) throw new CheckpointError(`tensor "${extra.name}" is not part of this model`);
  const trained = baseTaskOf(metadata);
  if (!trained.ok) throw new CheckpointError(trained.message);
  const { task, taskModule } = trained;
  const step = /^\d{1,9}$/.test(metadata.step ?? '') ? Number(metadata.step) : null;
  return {
    config,
    parameters,
    task,
    taskModule,
    step,
    metadata,
    report: baseReportOf(metadata),
    options: architectureOptions(config),
  };
}

export function architectureOptions(c: ModelConfig): string {
  return [
    ...(c.places ? [`digit places 1–${c.places.maxPlace}`] : []),
    ...(c.rope === false ? ['no RoPE'] : []),
  ].join(', ');
}
