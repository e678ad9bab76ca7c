import type { ModelConfig } from '../../model/config.ts';
import { VOCAB_SIZE } from '../../tasks/index.ts';

/** A one-layer policy small enough for unit tests of the RL loop on the CPU. */
export const TEST_MODEL_CONFIG: ModelConfig = {
  vocabSize: VOCAB_SIZE,
  contextLength: 24,
  layers: 1,
  dModel: 32,
  heads: 2,
  mlpRatio: 2,
  ropeBase: 10000,
};
