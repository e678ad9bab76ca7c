import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpu-backend.ts';
import { Transformer } from '../model/transformer.ts';
import { createRng, decode, type TaskFamily } from '../tasks/index.ts';
import { attempt } from './sampler.ts';
import { noIntervention } from './intervention.ts';
import { GrpoTrainer } from './trainer.ts';
import { TEST_MODEL_CONFIG } from './testing/test-model-config.ts';
import { config, twoLevelBandit } from './testing/bandit.ts';
import { recordUpdates, testTrainer, trainedRows } from './testing/trainer-probes.ts';

describe('GRPO trainer: the easy level replayed and distilled', () => {
  it("distils the base's greedy answers to the replayed prompts, even where no group has a gradient", async () => {
    // Every answer fails at both levels: GRPO alone has no gradient.
    const never = twoLevelBandit(() => 0);
    const c = config({
      prompts: 4,
      groupSize: 4,
      lrWarmupSteps: 1,
      evalEvery: 1000,
      schedule: [{ step: 0, level: 2 }],
      replayLevel: 1,
      replay: 0.5,
      distillCoef: 0.5,
    });
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    // Seed 18: a base whose greedy answer ends (most random ones run on).
    const base = Transformer.create(model.be, TEST_MODEL_CONFIG, 18);
    expect(() => new GrpoTrainer(model.be, model, never, c, noIntervention)).toThrow(
      /distillation \(distillCoef or distillMax above 0\) needs the base policy/,
    );
    const [baseAnswer] = await attempt(
      base,
      never,
      [{ problem: never.sample(1, createRng(0)), cue: {} }],
      {
        temperature: 0,
        seed: 0,
        counter: 0,
      },
    );
    expect(baseAnswer.ended).toBe(true);
    const before = await model.params.toTensors();
    const trainer = new GrpoTrainer(model.be, model, never, c, noIntervention, { base });
    const updates = recordUpdates(model);
    const m = await trainer.trainStep();
    expect(m.frac_reward_zero_std).toBe(1);
    expect(m.grad_norm).not.toBeNull();
    expect([m.distill_weight, m.distilled]).toEqual([0.5, 2]);
    // Only the two replayed prompts are trained, each on the base's answer, at 0.5 in all.
    const rows = trainedRows(updates);
    expect(rows).toHaveLength(2);
    const n = 2 * baseAnswer.tokens.length;
    for (const r of rows) {
      expect(r.text.endsWith(baseAnswer.answer + decode(baseAnswer.tokens.subarray(-1)))).toBe(
        true,
      );
      expect(r.taking).toEqual(Array.from(baseAnswer.tokens, () => expect.closeTo(0.5 / n, 7)));
    }
    const after = await model.params.toTensors();
    expect(after.some((t, i) => t.data.some((x, j) => x !== before[i].data[j]))).toBe(true);
    // Without the coefficient the same step leaves the policy as it was.
    const still = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    const plain = new GrpoTrainer(
      still.be,
      still,
      never,
      { ...c, distillCoef: 0 },
      noIntervention,
      {
        base,
      },
    );
    const pm = await plain.trainStep();
    expect(pm.grad_norm).toBeNull();
    expect([pm.distill_weight, pm.distilled]).toEqual([undefined, undefined]);
    // The keeper's weight instead: every replayed rollout failed, so the running success is
    // 1 + 0.2 × (0 − 1) = 0.8, and the weight (0.9 − 0.8)/0.9 of the way to the top.
    const kept = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    const keeper = { ...c, distillCoef: 0, distillMax: 0.9 };
    expect(() => new GrpoTrainer(kept.be, kept, never, keeper, noIntervention)).toThrow(
      /distillation \(distillCoef or distillMax above 0\) needs the base policy/,
    );
    const keptUpdates = recordUpdates(kept);
    const km = await new GrpoTrainer(kept.be, kept, never, keeper, noIntervention, {
      base,
    }).trainStep();
    expect(km.distill_weight).toBeCloseTo(0.1, 10);
    const keptRows = trainedRows(keptUpdates);
    expect(keptRows).toHaveLength(2);
    for (const r of keptRows)
      expect(r.taking).toEqual(Array.from(baseAnswer.tokens, () => expect.closeTo(0.1 / n, 7)));
    // Three more easy prompts, distilled only: five rows share the weight; no rollouts for them.
    const drawn = (extra: number) => {
      const levels: number[] = [];
      const counted: TaskFamily = {
        ...never,
        sample: (level, rng) => (levels.push(level), never.sample(level, rng)),
      };
      const policy = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
      const cfg = { ...c, distillPrompts: extra };
      const t = new GrpoTrainer(policy.be, policy, counted, cfg, noIntervention, { base });
      return { levels, t, policy };
    };
    const narrow = drawn(0);
    await narrow.t.trainStep();
    const wide = drawn(3);
    const wideUpdates = recordUpdates(wide.policy);
    const wm = await wide.t.trainStep();
    expect(wm.replay_share).toBe(0.5);
    const count = (levels: number[], level: number) => levels.filter((l) => l === level).length;
    expect(count(wide.levels, 1)).toBe(count(narrow.levels, 1) + 3);
    expect(count(wide.levels, 2)).toBe(count(narrow.levels, 2));
    expect(wide.t.rollouts).toHaveLength(narrow.t.rollouts.length);
    expect(wm.distilled).toBe(5);
    const wideRows = trainedRows(wideUpdates);
    expect(wideRows).toHaveLength(5);
    for (const r of wideRows) {
      expect(r.text.endsWith(baseAnswer.answer + decode(baseAnswer.tokens.subarray(-1)))).toBe(
        true,
      );
      expect(r.taking).toEqual(
        Array.from(baseAnswer.tokens, () => expect.closeTo(0.5 / ((5 / 2) * n), 7)),
      );
    }
    // At the replay level itself nothing is being forgotten: no extra prompts, no update.
    const home = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    const homeConfig = { ...c, distillPrompts: 3, schedule: [{ step: 0, level: 1 }] };
    const hm = await new GrpoTrainer(home.be, home, never, homeConfig, noIntervention, {
      base,
    }).trainStep();
    expect(hm.grad_norm).toBeNull();
    for (const bad of [-1, 2.5])
      expect(
        () =>
          new GrpoTrainer(home.be, home, never, { ...c, distillPrompts: bad }, noIntervention, {
            base,
          }),
      ).toThrow(/distillPrompts must be a whole number/);
    expect(
      () =>
        new GrpoTrainer(
          home.be,
          home,
          never,
          { ...c, distillCoef: 0, distillPrompts: 3 },
          noIntervention,
          { base },
        ),
    ).toThrow(/distillPrompts are learned by distillation/);
  });

  it('reports replayed easy-level groups apart, so all_fail_frac describes the current level', async () => {
    // Level 1 (replayed) is always right, level 2 (current) never.
    const byLevel = twoLevelBandit((p) => (p.level === 1 ? 1 : 0));
    const trainer = testTrainer(
      byLevel,
      config({
        prompts: 4,
        groupSize: 4,
        schedule: [{ step: 0, level: 2 }],
        replayLevel: 1,
        replay: 0.25,
      }),
    );
    const m = await trainer.trainStep();
    expect(m.all_fail_frac).toBe(1);
    expect(m.reward).toBe(0);
    expect(m.replay_reward).toBe(1);
    expect(m.frac_reward_zero_std).toBe(1);
    // The inspector tells the replayed group (one of four prompts) from the current level's.
    expect(trainer.rollouts.map((g) => g.replayed)).toEqual([true, false, false, false]);
  });

  it('replays more of the easy level while it fails, back to the rest share when it passes', async () => {
    let easyPasses = false;
    const byLevel = twoLevelBandit((p) => (p.level === 1 && easyPasses ? 1 : 0));
    const trainer = testTrainer(
      byLevel,
      config({
        prompts: 8,
        groupSize: 2,
        evalEvery: 1000,
        schedule: [{ step: 0, level: 2 }],
        replayLevel: 1,
        replay: 0.125,
        replayMax: 0.5,
      }),
    );
    const shares: number[] = [];
    for (let s = 0; s < 12; s++) shares.push((await trainer.trainStep()).replay_share ?? 0);
    // One prompt of 8 at first; as the running success falls the share climbs to 4 of 8.
    expect(shares[0]).toBe(1 / 8);
    expect(shares.slice(1).every((x, i) => x >= shares[i])).toBe(true);
    expect(shares[11]).toBeGreaterThanOrEqual(3 / 8);
    // The running success goes on from a saved state.
    const saved = await trainer.saveState();
    expect(saved.counters.replaySuccess).toBeLessThan(0.2);
    easyPasses = true;
    for (let s = 0; s < 20; s++) shares.push((await trainer.trainStep()).replay_share ?? 0);
    expect(shares.at(-1)).toBe(1 / 8);
    await trainer.restoreState(saved);
    expect((await trainer.trainStep()).replay_share).toBe(shares[11]);
  });
});
