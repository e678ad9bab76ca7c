import type { Backend } from '../engine/backend.ts';
import { ConfigError, validateConfig, type ModelConfig } from './config.ts';
import { ParameterStore } from './parameters.ts';
import { CheckpointError, parseSafetensors, serializeSafetensors } from './safetensors.ts';
import { Transformer } from './transformer.ts';

/** Format tag in the checkpoint metadata, bumped when names or layouts change. */
export const CHECKPOINT_FORMAT = 'mentor-playground/transformer@1';

/** Serialise the model's parameters and config (plus any extra string metadata). */
export async function saveCheckpoint(
  model: Transformer,
  extra: Record<string, string> = {},
): Promise<Uint8Array> {
  const tensors = await model.params.toTensors();
  return serializeSafetensors(tensors, {
    ...extra,
    format: CHECKPOINT_FORMAT,
    config: JSON.stringify(model.config),
  });
}

/** The model config stored in a checkpoint's metadata, validated. */
export function checkpointConfig(metadata: Record<string, string>): ModelConfig {
  if (metadata.format !== CHECKPOINT_FORMAT) {
    throw new CheckpointError(
      `not a ${CHECKPOINT_FORMAT} checkpoint (format: ${metadata.format ?? 'missing'})`,
    );
  }
  let config: ModelConfig;
  try {
    config = JSON.parse(metadata.config ?? '') as ModelConfig;
  } catch {
    throw new CheckpointError('metadata "config" is not valid JSON');
  }
  try {
    return validateConfig(config);
  } catch (e) {
    if (e instanceof ConfigError) throw new CheckpointError(e.message);
    throw e;
  }
}

/**
 * A model from checkpoint bytes. Everything is validated — header, dtypes, offsets, names, shapes,
 * finite values, config — before anything is allocated on the backend: never a partial load.
 */
export function loadCheckpoint(
  be: Backend,
  bytes: Uint8Array,
): { model: Transformer; metadata: Record<string, string> } {
  const { tensors, metadata } = parseSafetensors(bytes);
  const config = checkpointConfig(metadata);
  return { model: new Transformer(be, ParameterStore.fromTensors(be, config, tensors)), metadata };
}
