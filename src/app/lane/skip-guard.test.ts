import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../../engine/cpu/cpu-backend.ts';
import { Transformer } from '../../model/transformer.ts';
import { noIntervention } from '../../rl/intervention.ts';
import { bandit, config } from '../../rl/testing/bandit.ts';
import { TEST_MODEL_CONFIG } from '../../rl/testing/test-model-config.ts';
import { GrpoTrainer } from '../../rl/trainer.ts';
import { fakeStep } from '../testing/fake-metrics.ts';
import { ROLLBACK_AFTER_SKIPS, rolledBack, SkipGuard } from './skip-guard.ts';

describe('the lane watch on skipped updates', () => {
  it('gives one notice per skipped step and rolls back after three in a row', () => {
    const guard = new SkipGuard();
    const counts = [0, 1, 1, 2, 3, 4, 4, 5];
    const verdicts = counts.map((n, step) => guard.observe(fakeStep(step, { skipped_steps: n })));
    expect(verdicts.map((v) => v.notice !== null)).toEqual([
      false,
      true,
      false,
      true,
      true,
      true,
      false,
      true,
    ]);
    // Steps 3, 4 and 5 are three in a row; step 7 starts a new run.
    expect(verdicts.map((v) => v.rollback)).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
      false,
      false,
    ]);
    expect(verdicts[1].notice).toMatch(/^Step 1: the update was skipped/);
    expect(ROLLBACK_AFTER_SKIPS).toBe(3);
  });

  it('a rollback puts the point’s weights back with AdamW’s moments cleared, and keeps the step', async () => {
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    const c = config({ prompts: 4, groupSize: 8, lr: 3e-3, lrWarmupSteps: 1, evalEvery: 1000 });
    const trainer = new GrpoTrainer(model.be, model, bandit, c, noIntervention);
    await trainer.trainStep();
    const point = await trainer.saveState();
    for (let s = 0; s < 3; s++) await trainer.trainStep();
    const now = await trainer.saveState();
    await trainer.restoreState(rolledBack(now, point.weights));
    const after = await trainer.saveState();
    expect(after.weights).toEqual(point.weights);
    expect(after.weights).not.toEqual(now.weights);
    expect(after.optimizer.moments.every((t) => t.data.every((x) => x === 0))).toBe(true);
    expect(after.optimizer.step).toBe(0);
    expect(after.counters).toEqual(now.counters);
    expect(trainer.step).toBe(4);
    const next = await trainer.trainStep();
    expect(next.step).toBe(4);
    expect(Number.isFinite(next.loss)).toBe(true);
  });
});
