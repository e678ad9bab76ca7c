// A trainer small enough for the interventions' unit tests: a one-layer policy on 3-digit
// additions, 4 prompts × 4 answers, with the intervention under test and its deadline.
import { CpuBackend } from '../../engine/cpu/cpu-backend.ts';
import { Transformer } from '../../model/transformer.ts';
import { DEFAULT_GRPO } from '../../rl/config.ts';
import type { Intervention } from '../../rl/intervention.ts';
import { TEST_MODEL_CONFIG } from '../../rl/testing/test-model-config.ts';
import { GrpoTrainer } from '../../rl/trainer.ts';
import { createArithmetic } from '../../tasks/index.ts';

export function arithmeticTrainer(intervention: Intervention, mentorDeadlineMs: number) {
  const model = Transformer.create(
    new CpuBackend(),
    { ...TEST_MODEL_CONFIG, contextLength: 32 },
    1,
  );
  const config = {
    ...DEFAULT_GRPO,
    task: 'arithmetic' as const,
    schedule: [{ step: 0, level: 3 }],
    prompts: 4,
    groupSize: 4,
    mentorDeadlineMs,
  };
  return new GrpoTrainer(model.be, model, createArithmetic({ ops: ['+'] }), config, intervention);
}
