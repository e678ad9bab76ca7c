import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpu-backend.ts';
import { Transformer } from '../model/transformer.ts';
import {
  PAD,
  createArithmetic,
  createRng,
  encodeSequence,
  type TaskFamily,
} from '../tasks/index.ts';
import { greedyAccuracy } from './sampler.ts';
import { noIntervention, type Intervention } from './intervention.ts';
import { weightedBatch } from './sequences.ts';
import type { StepMetrics } from './metrics.ts';
import { GrpoTrainer } from './trainer.ts';
import { runWarmup } from './warmup.ts';
import { TEST_MODEL_CONFIG } from './testing/test-model-config.ts';
import { bandit, config, REWARDED } from './testing/bandit.ts';
import {
  helpEveryGroup,
  recordUpdates,
  rewardRate,
  rowText,
  testTrainer,
} from './testing/trainer-probes.ts';

/**
 * What the first update of four groups of four on `family`, each helped once by `help`, trains
 * on; empty where none of the first `steps` steps updates.
 */
async function firstUpdates(family: TaskFamily, help: Intervention, steps: number) {
  const trainer = testTrainer(family, config({ prompts: 4, groupSize: 4, maxRounds: 1 }), help);
  const updates = recordUpdates(trainer.model);
  for (let s = 0; s < steps && updates.length === 0; s++) await trainer.trainStep();
  return updates;
}

describe('GRPO trainer', () => {
  it('moves a two-armed bandit towards the rewarded arm', async () => {
    const trainer = testTrainer(
      bandit,
      config({ prompts: 4, groupSize: 8, lr: 3e-3, lrWarmupSteps: 1, evalEvery: 1000 }),
    );
    const probe = Array.from({ length: 256 }, () => bandit.sample(1, createRng(0)));
    const before = await rewardRate(trainer.model, bandit, probe, 99);
    for (let s = 0; s < 25; s++) await trainer.trainStep();
    const after = await rewardRate(trainer.model, bandit, probe, 99);
    expect(before).toBeLessThan(0.5);
    expect(after).toBeGreaterThan(before + 0.25);
  });

  it('leaves the policy untouched when every group is all-equal (zero-reward collapse)', async () => {
    const never: TaskFamily = {
      ...bandit,
      verify: (p, a) => ({ ...bandit.verify(p, a), reward: 0 }),
    };
    const trainer = testTrainer(never, config({ prompts: 4, groupSize: 4 }));
    const before = await trainer.model.params.toTensors();
    const m = await trainer.trainStep();
    expect(m.all_fail_frac).toBe(1);
    expect(m.frac_reward_zero_std).toBe(1);
    expect(m.grad_norm).toBeNull();
    const after = await trainer.model.params.toTensors();
    after.forEach((t, i) => expect(t.data).toEqual(before[i].data));
  });

  it("gives a re-prompted group the failed group's place and records the intervention", async () => {
    const scaffolding = helpEveryGroup('test-scaffold', {
      help: { kind: 'retry', scaffold: 'a', learn: 'as-sampled' },
      note: 'forced a rewarded first letter',
    });
    const trainer = testTrainer(
      bandit,
      config({ prompts: 4, groupSize: 4, maxRounds: 1 }),
      scaffolding,
    );
    const m = await trainer.trainStep();
    expect(m.interventions.map((r) => r.group)).toEqual([0, 1, 2, 3]);
    for (const r of m.interventions) {
      expect(r.scaffold).toBe('a');
      expect(r.note).toBe('forced a rewarded first letter');
      expect(r.rewards).toEqual([1, 1, 1, 1]);
    }
    expect(m.hinted_frac).toBe(1);
    expect(m.rescue_rate).toBe(1);
    // Every helped group now scores 1 throughout: all-equal, so no group carries signal.
    expect(m.frac_reward_zero_std).toBe(1);
  });

  it('trains a hinted re-attempt without its hint when the reprompt asks for it', async () => {
    const hinting = helpEveryGroup('test-demonstrate', {
      help: { kind: 'retry', hint: { kind: 'length', length: 7 }, learn: 'unhinted-reweighted' },
      note: 'shown, learned unhinted',
    });
    const updates = await firstUpdates(bandit, hinting, 6);
    expect(updates.length).toBeGreaterThan(0);
    const seen = updates.flatMap(({ batch }) =>
      Array.from({ length: batch.B }, (_, i) => rowText(batch, i)),
    );
    const weights = updates.flatMap(({ weights: w }) => (w ? Array.from(w) : []));
    // The sampling prompt had "|#7|"; the trained sequences have the empty slot.
    expect(seen.every((t) => t.includes('||1+1=') && !t.includes('#7'))).toBe(true);
    expect(weights.every(Number.isFinite)).toBe(true);
    expect(weights.some((w) => w !== 0)).toBe(true);
  });

  it('keeps keepFailed unhelped failures in a helped group, so an all-pass help still teaches', async () => {
    const onlyA: TaskFamily = {
      ...bandit,
      verify: (p, answer) => ({ ...bandit.verify(p, answer), reward: answer[0] === 'a' ? 1 : 0 }),
    };
    const trainer = testTrainer(
      onlyA,
      config({ prompts: 4, groupSize: 4, maxRounds: 1, keepFailed: 1, seed: 2 }),
      helpEveryGroup('test-keep', {
        help: {
          kind: 'retry',
          hint: { kind: 'length', length: 1 },
          scaffold: 'a',
          learn: 'unhinted-reweighted',
        },
        note: 'forced a',
      }),
      4,
    );
    const updates = recordUpdates(trainer.model);
    const m = await trainer.trainStep();
    expect(m.reward).toBe(0);
    // G − k = 3 re-attempts per helped group, all passing.
    for (const r of m.interventions) expect(r.rewards).toEqual([1, 1, 1]);
    // One kept failure and three passes per group: every group carries signal.
    expect(m.frac_reward_zero_std).toBe(0);
    // The inspector tells the kept failure from the helped re-attempts.
    for (const g of trainer.rollouts)
      expect(g.attempts.map((a) => [a.helped, a.reward])).toEqual([
        [false, 0],
        [true, 1],
        [true, 1],
        [true, 1],
      ]);
    const { batch, weights } = updates[0];
    const rows = Array.from({ length: batch.B }, (_, i) => {
      const text = rowText(batch, i);
      const eq = text.indexOf('=');
      // The weight of the first answer token's row: the one sampled after '=' or after the scaffold.
      const first = batch.start[i] + eq + (text[eq + 1] === 'a' ? 1 : 0);
      return {
        text,
        helped: text[eq + 1] === 'a',
        weight: (weights as Float32Array)[i * batch.T + first],
      };
    });
    expect(rows).toHaveLength(16);
    expect(rows.filter((r) => r.helped)).toHaveLength(12);
    // Every answer is trained under the unhinted prompt; failures pushed down, passes up.
    expect(rows.every((r) => r.text.includes('||1+1='))).toBe(true);
    for (const r of rows) expect(Math.sign(r.weight)).toBe(r.helped ? 1 : -1);
    expect(() => testTrainer(onlyA, config({ groupSize: 4, keepFailed: 4 }))).toThrow(
      /keepFailed must be below groupSize/,
    );
  });

  it('trains the scaffold of a passing re-attempt only when the reprompt credits it', async () => {
    // Two-letter answers: the first is forced as a scaffold, the second decides the reward.
    const second: TaskFamily = {
      ...bandit,
      // The forced z is an answer character that earns nothing by itself.
      answerChars: `${REWARDED}z`,
      verify: (p, answer) => ({
        ...bandit.verify(p, answer),
        reward: answer.length > 1 && REWARDED.includes(answer[1]) ? 1 : 0,
      }),
    };
    const scaffoldWeights = async (scaffoldCredit: boolean) => {
      const helping = helpEveryGroup('test-credit', {
        help: {
          kind: 'retry',
          hint: { kind: 'length', length: 2 },
          scaffold: 'z',
          learn: 'unhinted-reweighted',
          creditScaffold: scaffoldCredit,
        },
        note: 'forced z',
      });
      const updates = await firstUpdates(second, helping, 8);
      return updates.flatMap(({ batch: b, weights: w }) =>
        Array.from({ length: b.B }, (_, i) => i).flatMap((i) => {
          const seq = rowText(b, i);
          const eq = seq.indexOf('=');
          if (!w || seq[eq + 1] !== 'z') return [];
          // Row eq (from the first real column) predicts the scaffold token after '='.
          return [
            { passing: REWARDED.includes(seq[eq + 2]), weight: w[i * b.T + b.start[i] + eq] },
          ];
        }),
      );
    };
    const credited = await scaffoldWeights(true);
    expect(credited.some((r) => r.passing)).toBe(true);
    expect(credited.some((r) => !r.passing)).toBe(true);
    for (const r of credited) {
      if (r.passing) expect(r.weight).toBeGreaterThan(0);
      else expect(r.weight).toBe(0);
    }
    const plain = await scaffoldWeights(false);
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.every((r) => r.weight === 0)).toBe(true);
  });

  it('measures every level the run has trained at, and their mean (eval_accuracy_all)', async () => {
    const family = createArithmetic({ ops: ['+'] });
    const c = config({
      task: 'arithmetic',
      prompts: 2,
      groupSize: 2,
      evalEvery: 2,
      evalSize: 8,
      schedule: [
        { step: 0, level: 1 },
        { step: 2, level: 2 },
        { step: 4, level: 3 },
      ],
    });
    const trainer = testTrainer(family, c, noIntervention, 11);
    const { model } = trainer;
    const evals = [];
    for (let s = 0; s < 6; s++) {
      const m = await trainer.trainStep();
      if (m.eval_accuracy !== undefined) evals.push(m);
    }
    expect(evals.map((m) => Object.keys(m.eval_accuracy_levels ?? {}))).toEqual([
      ['1'],
      ['1', '2'],
      ['1', '2', '3'],
    ]);
    const last = evals[2];
    const levels = last.eval_accuracy_levels!;
    expect(levels['3']).toBe(last.eval_accuracy);
    expect(levels['2']).toBe(last.eval_accuracy_prev);
    // The level two changes back is measured on its own fixed set, as the others are.
    expect(levels['1']).toBe((await greedyAccuracy(model, family, trainer.evalSet(1))).accuracy);
    expect(last.eval_accuracy_all).toBeCloseTo((levels['1'] + levels['2'] + levels['3']) / 3, 6);

    // The visited levels go with the state; a state saved before they were kept gives the last two.
    const state = await trainer.saveState();
    expect(state.counters.visitedLevels).toEqual([1, 2, 3]);
    const { visitedLevels: _dropped, ...older } = state.counters;
    const again = new GrpoTrainer(model.be, model, family, c, noIntervention);
    await again.restoreState({ ...state, counters: older });
    expect((await again.saveState()).counters.visitedLevels).toEqual([2, 3]);
    await expect(
      again.restoreState({ ...state, counters: { ...state.counters, visitedLevels: [] } }),
    ).rejects.toThrow(/visitedLevels/);
    await expect(
      again.restoreState({ ...state, counters: { ...state.counters, replaySuccess: -0.5 } }),
    ).rejects.toThrow(/replaySuccess is -0.5/);
  });

  it('adds dense evals after a level change that change nothing it learns or tells the intervention', async () => {
    const family = createArithmetic({ ops: ['+'] });
    const seen: (number | null)[][] = [[], []];
    const run = async (evalDenseEvery: number, i: number) => {
      const watcher: Intervention = {
        name: 'watcher',
        async plan(_batch, ctx) {
          seen[i].push(ctx.evalAccuracy);
          return [];
        },
      };
      const c = config({
        task: 'arithmetic',
        prompts: 2,
        groupSize: 2,
        evalEvery: 6,
        evalDenseEvery,
        evalDenseSteps: 4,
        evalSize: 4,
        schedule: [
          { step: 0, level: 1 },
          { step: 3, level: 2 },
        ],
      });
      const trainer = testTrainer(family, c, watcher, 5);
      const steps = [];
      for (let s = 0; s < 12; s++) steps.push(await trainer.trainStep());
      return steps;
    };
    const plain = await run(0, 0);
    const dense = await run(2, 1);
    const evalSteps = (ms: StepMetrics[]) =>
      ms.filter((m) => m.eval_accuracy !== undefined).map((m) => m.step + 1);
    // Regular evals after 6 and 12 updates; dense ones 2 and 4 updates after the change at 3.
    expect(evalSteps(plain)).toEqual([6, 12]);
    expect(evalSteps(dense)).toEqual([5, 6, 7, 12]);
    const learned = (ms: StepMetrics[]) =>
      ms.map(({ loss, grad_norm, reward, entropy }) => ({ loss, grad_norm, reward, entropy }));
    expect(learned(dense)).toEqual(learned(plain));
    expect(seen[1]).toEqual(seen[0]);
  });

  it('raises the probability of right answers at an easy level from a warmed-up base (fixed seed)', async () => {
    const family = createArithmetic({ ops: ['+'] });
    const model = Transformer.create(new CpuBackend(), { ...TEST_MODEL_CONFIG, layers: 2 }, 5);
    await runWarmup(model, family, {
      seed: 5,
      steps: 200,
      batch: 32,
      lr: 3e-3,
      warmupSteps: 20,
      mix: [{ level: 1, weight: 1, hintRate: 0 }],
    });
    // The exact expected reward on a fixed set: p(reference answer) under the policy, no sampling noise.
    const rng = createRng(77);
    const reference = Array.from({ length: 200 }, () => {
      const p = family.sample(1, rng);
      const e = encodeSequence(p, p.answer);
      return { tokens: e.tokens, lossStart: e.lossStart, weight: 1 };
    });
    const { batch, weights } = weightedBatch(reference, PAD);
    const expected = async () => {
      const { logp } = await model.score(batch);
      let total = 0;
      for (let b = 0; b < batch.B; b++) {
        let lp = 0;
        for (let t = 0; t < batch.T; t++) if (weights[b * batch.T + t]) lp += logp[b * batch.T + t];
        total += Math.exp(lp);
      }
      return total / batch.B;
    };
    const before = await expected();
    const trainer = new GrpoTrainer(
      model.be,
      model,
      family,
      config({ prompts: 16, groupSize: 8, lr: 3e-4, lrWarmupSteps: 10, seed: 5 }),
      noIntervention,
    );
    for (let s = 0; s < 50; s++) await trainer.trainStep();
    const after = await expected();
    expect(before).toBeLessThan(0.5);
    expect(after).toBeGreaterThan(before + 0.015);
  });
});
