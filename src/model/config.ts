import { MAX_HEAD_DIM } from '../engine/limits.ts';

/** Architecture of the decoder-only policy. */
export interface ModelConfig {
  vocabSize: number;
  /** Longest sequence (prompt + answer) the model runs on; RoPE covers every position. */
  contextLength: number;
  layers: number;
  dModel: number;
  heads: number;
  /** MLP hidden width = mlpRatio · dModel. */
  mlpRatio: number;
  ropeBase: number;
  /** false: no positional encoding (NoPE), every rotation the identity; absent or true: RoPE. */
  rope?: boolean;
  /** Optional digit-place embedding (see places.ts); absent in checkpoints from before it. */
  places?: PlaceConfig;
}

/** Which token ids are the digits 0–9 (consecutive from firstDigit), and the highest place. */
export interface PlaceConfig {
  firstDigit: number;
  maxPlace: number;
}

export type ModelSize = 'tiny' | 'small';
export const MODEL_SIZES: readonly ModelSize[] = ['tiny', 'small'];

/** Architecture of each model size; the vocabulary size comes from the tokenizer. */
export const ARCHITECTURES: Record<ModelSize, Omit<ModelConfig, 'vocabSize'>> = {
  // ~100k parameters: CI-scale experiments on two CPU cores.
  tiny: { contextLength: 128, layers: 2, dModel: 64, heads: 4, mlpRatio: 4, ropeBase: 10000 },
  // ~0.8M parameters: for a browser GPU.
  small: { contextLength: 128, layers: 4, dModel: 128, heads: 4, mlpRatio: 4, ropeBase: 10000 },
};

export const MAX_CONTEXT = 1024;
export const MAX_VOCAB = 65536;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Checks every field before anything is allocated; returns the config unchanged when valid. */
export function validateConfig(c: ModelConfig): ModelConfig {
  const int = (key: keyof ModelConfig, min: number, max: number) => {
    const v = c[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      throw new ConfigError(
        `model config: ${key} must be an integer in [${min}, ${max}], got ${String(v)}`,
      );
    }
  };
  int('vocabSize', 2, MAX_VOCAB);
  int('contextLength', 2, MAX_CONTEXT);
  int('layers', 1, 64);
  int('dModel', 2, 4096);
  int('heads', 1, 256);
  int('mlpRatio', 1, 16);
  if (c.dModel % c.heads !== 0) {
    throw new ConfigError(`model config: heads (${c.heads}) must divide dModel (${c.dModel})`);
  }
  const dh = c.dModel / c.heads;
  if (dh % 2 !== 0)
    throw new ConfigError(`model config: head dimension ${dh} must be even for RoPE`);
  if (dh > MAX_HEAD_DIM) {
    throw new ConfigError(
      `model config: head dimension ${dh} exceeds ${MAX_HEAD_DIM}; use more heads`,
    );
  }
  if (!(typeof c.ropeBase === 'number' && c.ropeBase > 1 && Number.isFinite(c.ropeBase))) {
    throw new ConfigError(`model config: ropeBase must be a number > 1, got ${String(c.ropeBase)}`);
  }
  if (c.rope !== undefined && typeof c.rope !== 'boolean')
    throw new ConfigError(`model config: rope must be true or false, got ${String(c.rope)}`);
  if (c.places !== undefined) {
    const { firstDigit, maxPlace } = c.places;
    if (!Number.isInteger(firstDigit) || firstDigit < 0 || firstDigit + 10 > c.vocabSize) {
      throw new ConfigError(
        `model config: places.firstDigit must leave 10 digit ids inside the vocabulary, got ${String(firstDigit)}`,
      );
    }
    if (!Number.isInteger(maxPlace) || maxPlace < 1 || maxPlace > 64) {
      throw new ConfigError(
        `model config: places.maxPlace must be an integer in [1, 64], got ${String(maxPlace)}`,
      );
    }
  }
  return c;
}

export function modelConfig(size: ModelSize, vocabSize: number): ModelConfig {
  const p = Object.hasOwn(ARCHITECTURES, size) ? ARCHITECTURES[size] : undefined;
  if (!p)
    throw new ConfigError(`unknown model size "${size}"; choose one of ${MODEL_SIZES.join(', ')}`);
  return validateConfig({ ...p, vocabSize });
}

export function headDim(c: ModelConfig): number {
  return c.dModel / c.heads;
}
