import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpu-backend.ts';
import type { TokenBatch } from '../model/batch.ts';
import { Transformer } from '../model/transformer.ts';
import {
  PAD,
  createArithmetic,
  createRng,
  decode,
  encodeSequence,
  renderHint,
  type Hint,
  type Problem,
  type TaskFamily,
} from '../tasks/index.ts';
import { attempt, greedyAccuracy } from './evaluate.ts';
import {
  noIntervention,
  type Help,
  type Intervention,
  type Reprompt,
  type ScoredGroup,
} from './intervention.ts';
import { weightedBatch } from './sequences.ts';
import type { StepMetrics } from './metrics.ts';
import { GrpoTrainer } from './trainer.ts';
import { customEntry } from '../tasks/custom/custom-entry.ts';
import type { TaskModule } from '../tasks/custom/task-module.ts';
import { runWarmup } from './warmup.ts';
import { TEST_MODEL_CONFIG } from './testing/test-model-config.ts';
import { bandit, config, REWARDED } from './testing/bandit.ts';
import { checkNonFiniteRun, nonFiniteRun } from './testing/nonfinite-run.ts';

/** What the policy update trains on: each packed batch, with the row weights of its backward. */
function recordUpdates(model: Transformer): { batch: TokenBatch; weights?: Float32Array }[] {
  const updates: { batch: TokenBatch; weights?: Float32Array }[] = [];
  let last: TokenBatch | null = null;
  const forward = model.forwardTrain.bind(model);
  model.forwardTrain = (b) => {
    last = b;
    forward(b);
  };
  const backward = model.backward.bind(model);
  model.backward = (w?: Float32Array) => {
    if (last) updates.push({ batch: last, weights: w && Float32Array.from(w) });
    backward(w);
  };
  return updates;
}

/** An intervention that gives every group of every step the same help. */
/** A retry with no help in the prompt: the group sampled again. */
const RESAMPLE: Help = { kind: 'retry', learn: 'as-sampled' };

const demonstration = (
  answer: string,
  count: number,
  weight: 'shaped' | 'plain' = 'shaped',
): Help => ({
  kind: 'demonstration',
  answer,
  count,
  weight,
});

function helpEveryGroup(name: string, help: Omit<Reprompt, 'group'>): Intervention {
  return {
    name,
    async plan(batch) {
      return batch.groups.map((g) => ({ group: g.group, ...help }));
    },
  };
}

/** Every trained row of the recorded updates: its text, and the weights that are not 0. */
function trainedRows(
  updates: readonly { batch: TokenBatch; weights?: Float32Array }[],
): { text: string; taking: number[] }[] {
  return updates.flatMap(({ batch, weights }) =>
    Array.from({ length: batch.B }, (_, i) => ({
      text: rowText(batch, i),
      taking: weights
        ? Array.from(weights.subarray(i * batch.T, (i + 1) * batch.T)).filter((x) => x !== 0)
        : [],
    })),
  );
}

/**
 * One step of an untrained policy on 3-digit sums (every group fails) whose intervention plans
 * `plan(groups)` in the first round only; the updates it made are recorded.
 */
async function writtenAnswerStep(prompts: number, plan: (groups: ScoredGroup[]) => Reprompt[]) {
  const model = Transformer.create(
    new CpuBackend(),
    { ...TEST_MODEL_CONFIG, contextLength: 32 },
    7,
  );
  const c = config({ prompts, groupSize: 4, lr: 1e-3, lrWarmupSteps: 1, evalEvery: 1000 });
  const writer: Intervention = {
    name: 'writer',
    async plan(batch) {
      return batch.round > 0 ? [] : plan(batch.groups);
    },
  };
  const trainer = new GrpoTrainer(
    model.be,
    model,
    createArithmetic({ ops: ['+'] }),
    { ...c, task: 'arithmetic', schedule: [{ step: 0, level: 3 }] },
    writer,
  );
  const updates = recordUpdates(model);
  const m = await trainer.trainStep();
  return { trainer, updates, m };
}

/** A trainer on the bandit: G = 4, one round of help, seed 4. */
function banditTrainer(model: Transformer, prompts: number, help: Intervention): GrpoTrainer {
  return new GrpoTrainer(
    model.be,
    model,
    bandit,
    config({ prompts, groupSize: 4, maxRounds: 1, seed: 4 }),
    help,
  );
}

/** One step of one bandit group given `help`, with the updates it made. */
/** Plain GRPO on a one-level task module whose answers are `a` or `b`, on the test model. */
function taskModuleTrainer(task: TaskModule, prompts: number, groupSize: number): GrpoTrainer {
  const entry = customEntry(task, { answerChars: 'ab', maxTokens: [24] });
  const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
  return new GrpoTrainer(
    model.be,
    model,
    entry.training as unknown as TaskFamily,
    config({ prompts, groupSize, evalEvery: 1000, task: entry.family.id }),
    noIntervention,
  );
}

async function oneHelpedStep(help: Help) {
  const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
  const updates = recordUpdates(model);
  const trainer = banditTrainer(model, 1, helpEveryGroup('helper', { help, note: 'help' }));
  return { trainer, updates, m: await trainer.trainStep() };
}

/** Row i of a packed batch, from its first real column. */
function rowText(b: TokenBatch, i: number): string {
  return decode(b.tokens.subarray(i * b.T + b.start[i], (i + 1) * b.T));
}

async function rewardRate(
  model: Transformer,
  family: TaskFamily,
  problems: Problem[],
  seed: number,
): Promise<number> {
  const atts = await attempt(
    model,
    family,
    problems.map((problem) => ({ problem, help: {} })),
    { temperature: 1, seed, counter: 0 },
  );
  return atts.filter((a) => a.verdict.reward === 1).length / atts.length;
}

describe('GRPO trainer', () => {
  it('moves a two-armed bandit towards the rewarded arm', async () => {
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    const probe = Array.from({ length: 256 }, () => bandit.sample(1, createRng(0)));
    const before = await rewardRate(model, bandit, probe, 99);
    const trainer = new GrpoTrainer(
      model.be,
      model,
      bandit,
      config({ prompts: 4, groupSize: 8, lr: 3e-3, lrWarmupSteps: 1, evalEvery: 1000 }),
      noIntervention,
    );
    for (let s = 0; s < 25; s++) await trainer.trainStep();
    const after = await rewardRate(model, bandit, probe, 99);
    expect(before).toBeLessThan(0.5);
    expect(after).toBeGreaterThan(before + 0.25);
  });

  it('leaves the policy untouched when every group is all-equal (zero-reward collapse)', async () => {
    const never: TaskFamily = {
      ...bandit,
      verify: (p, a) => ({ ...bandit.verify(p, a), reward: 0 }),
    };
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    const before = await model.params.toTensors();
    const trainer = new GrpoTrainer(
      model.be,
      model,
      never,
      config({ prompts: 4, groupSize: 4 }),
      noIntervention,
    );
    const m = await trainer.trainStep();
    expect(m.all_fail_frac).toBe(1);
    expect(m.frac_reward_zero_std).toBe(1);
    expect(m.grad_norm).toBeNull();
    const after = await model.params.toTensors();
    after.forEach((t, i) => expect(t.data).toEqual(before[i].data));
  });

  it("distils the base's greedy answers to the replayed prompts, even where no group has a gradient", async () => {
    // Every answer fails at both levels: GRPO alone has no gradient.
    const never: TaskFamily = {
      ...bandit,
      levels: { min: 1, max: 2 },
      sample: (level) => ({ ...bandit.sample(level, createRng(0)), level }) as Problem,
      verify: (p, a) => ({ ...bandit.verify(p, a), reward: 0 }),
    };
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
      [{ problem: never.sample(1, createRng(0)), help: {} }],
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
    const byLevel: TaskFamily = {
      ...bandit,
      levels: { min: 1, max: 2 },
      sample: (level) => ({ ...bandit.sample(level, createRng(0)), level }) as Problem,
      verify: (p, a) => ({ ...bandit.verify(p, a), reward: p.level === 1 ? 1 : 0 }),
    };
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    const trainer = new GrpoTrainer(
      model.be,
      model,
      byLevel,
      config({
        prompts: 4,
        groupSize: 4,
        schedule: [{ step: 0, level: 2 }],
        replayLevel: 1,
        replay: 0.25,
      }),
      noIntervention,
    );
    const m = await trainer.trainStep();
    expect(m.all_fail_frac).toBe(1);
    expect(m.reward).toBe(0);
    expect(m.replay_reward).toBe(1);
    expect(m.frac_reward_zero_std).toBe(1);
  });

  it('replays more of the easy level while it fails, back to the rest share when it passes', async () => {
    let easyPasses = false;
    const byLevel: TaskFamily = {
      ...bandit,
      levels: { min: 1, max: 2 },
      sample: (level) => ({ ...bandit.sample(level, createRng(0)), level }) as Problem,
      verify: (p, a) => ({ ...bandit.verify(p, a), reward: p.level === 1 && easyPasses ? 1 : 0 }),
    };
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    const trainer = new GrpoTrainer(
      model.be,
      model,
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
      noIntervention,
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

  it("gives a re-prompted group the failed group's place and records the intervention", async () => {
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    const scaffolding = helpEveryGroup('test-scaffold', {
      help: { kind: 'retry', scaffold: 'a', learn: 'as-sampled' },
      note: 'forced a rewarded first letter',
    });
    const trainer = new GrpoTrainer(
      model.be,
      model,
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
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    const hinting = helpEveryGroup('test-demonstrate', {
      help: { kind: 'retry', hint: { kind: 'length', length: 7 }, learn: 'unhinted-reweighted' },
      note: 'shown, learned unhinted',
    });
    const updates = recordUpdates(model);
    const trainer = new GrpoTrainer(
      model.be,
      model,
      bandit,
      config({ prompts: 4, groupSize: 4, maxRounds: 1 }),
      hinting,
    );
    for (let s = 0; s < 6 && updates.length === 0; s++) await trainer.trainStep();
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
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 4);
    const updates = recordUpdates(model);
    const trainer = new GrpoTrainer(
      model.be,
      model,
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
    );
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
    expect(
      () =>
        new GrpoTrainer(
          model.be,
          model,
          onlyA,
          config({ groupSize: 4, keepFailed: 4 }),
          noIntervention,
        ),
    ).toThrow(/keepFailed must be an integer from 0 to 3/);
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
      const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
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
      const updates = recordUpdates(model);
      const trainer = new GrpoTrainer(
        model.be,
        model,
        second,
        config({ prompts: 4, groupSize: 4, maxRounds: 1 }),
        helping,
      );
      for (let s = 0; s < 8 && updates.length === 0; s++) await trainer.trainStep();
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

  it('skips an update whose gradient is NaN or infinite, and goes on (fault injection)', async () => {
    expect(checkNonFiniteRun(await nonFiniteRun(new CpuBackend()))).toEqual([]);
  });

  it("scores an answer the task's verifier fails on 0, and reports it as an event", async () => {
    // A task module whose verify throws on every answer but the reference.
    const task: TaskModule = {
      id: 'verify-throws',
      label: 'Verify throws',
      levels: { min: 1, max: 1 },
      sample: (_level, rng) => ({ text: 'a', answer: rng.pick(['a', 'b']) }),
      verify: (p, answer) => {
        if (answer !== p.answer) throw new Error(`cannot read ${answer}`);
        return 1;
      },
    };
    const trainer = taskModuleTrainer(task, 2, 4);
    const m = await trainer.trainStep();
    const faulted = trainer.rollouts.flatMap((g) => g.attempts).filter((a) => a.reward === 0);
    expect(faulted.length).toBeGreaterThan(0);
    expect(m.events).toEqual([
      expect.stringMatching(
        new RegExp(
          `^the verifier failed on ${faulted.length} answers? this step, each scored 0; the first: task "verify-throws": verify threw \\(cannot read .*\\) on the answer .* to "a"; scored 0$`,
        ),
      ),
    ]);
    expect((await trainer.trainStep()).step).toBe(1);
  });

  it("draws a problem again where the task's sampler fails, says so, and fails the step only when it always does", async () => {
    let calls = 0;
    const task: TaskModule = {
      id: 'sample-throws',
      label: 'Sample throws',
      levels: { min: 1, max: 1 },
      // Every third draw fails; from the 40th on, every one.
      sample: (_level, rng) => {
        calls++;
        if (calls % 3 === 0 || calls >= 40) throw new Error(`draw ${calls} failed`);
        return { text: 'a', answer: rng.pick(['a', 'b']) };
      },
    };
    const trainer = taskModuleTrainer(task, 4, 2);
    const m = await trainer.trainStep();
    expect(m.events).toEqual([
      'the sampler failed 1 time this step, each problem drawn again; the first: task "sample-throws": sample(1) threw: draw 3 failed',
    ]);
    await expect(async () => {
      for (let s = 0; s < 20; s++) await trainer.trainStep();
    }).rejects.toThrow(/sample\(1\) threw: draw \d+ failed/);
  });

  it('goes on without help when the intervention misses its deadline, and says so', async () => {
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    let recovered = '';
    const stuck: Intervention = {
      name: 'stuck',
      plan: () => new Promise(() => {}),
      recover: (reason) => {
        recovered = reason;
      },
    };
    const trainer = new GrpoTrainer(
      model.be,
      model,
      bandit,
      config({ prompts: 2, groupSize: 4, mentorDeadlineMs: 50 }),
      stuck,
    );
    const m = await trainer.trainStep();
    expect(m.hinted_frac).toBe(0);
    expect(m.events.join(' ')).toMatch(/stuck plan failed at step 0: no answer within 50 ms/);
    expect(recovered).toMatch(/no answer within 50 ms/);
  });

  it('a mentor that never answers observe or stats costs each step at most one deadline', async () => {
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    const recoveries: string[] = [];
    let observed = 0;
    const mute: Intervention = {
      name: 'mute',
      // Help every failed group, so that observe is due.
      plan: async (batch) =>
        batch.round === 0
          ? batch.groups.map((g) => ({ group: g.group, help: RESAMPLE, note: 'again' }))
          : [],
      observe: () => {
        observed++;
        return new Promise(() => {});
      },
      stats: () => new Promise(() => {}),
      recover: (reason) => {
        recoveries.push(reason);
      },
    };
    const deadline = 60;
    const trainer = new GrpoTrainer(
      model.be,
      model,
      bandit,
      config({ prompts: 2, groupSize: 4, mentorDeadlineMs: deadline, maxRounds: 3 }),
      mute,
    );
    for (let s = 0; s < 3; s++) {
      const m = await trainer.trainStep();
      // observe missed its deadline; stats, and later rounds, were not asked at all.
      expect(m.events).toEqual([
        `mute observe failed at step ${s}: no answer within ${deadline} ms; going on without it`,
      ]);
      expect(m.interventions.length).toBeGreaterThan(0);
      expect(m.intervention_stats).toBeUndefined();
    }
    expect(observed).toBe(3);
    expect(recoveries).toHaveLength(3);
  });

  it('a state the intervention cannot save between steps costs the next step nothing', async () => {
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    let planned = 0;
    const forgetful: Intervention = {
      name: 'forgetful',
      async plan(batch) {
        if (batch.round > 0) return [];
        planned++;
        return batch.groups.map((g) => ({ group: g.group, help: RESAMPLE, note: 'again' }));
      },
      saveState: () => new Promise(() => {}),
    };
    const c = config({ prompts: 2, groupSize: 4, mentorDeadlineMs: 50 });
    const trainer = new GrpoTrainer(model.be, model, bandit, c, forgetful);
    await trainer.trainStep();
    const problems: string[] = [];
    const state = await trainer.saveState(problems);
    expect(problems).toEqual([
      'forgetful saveState failed after step 0: no answer within 50 ms; going on without it',
    ]);
    expect(state.intervention).toBeUndefined();
    const next = await trainer.trainStep();
    expect(next.events).toEqual([]);
    expect(next.interventions.length).toBeGreaterThan(0);
    expect(planned).toBe(2);
  });

  it('a demonstration from the intervention joins the failed group, scored and shaped', async () => {
    const { trainer, updates, m } = await writtenAnswerStep(3, ([a, b, d]) => [
      { group: a.group, help: demonstration(a.problem.answer, 1), note: 'one' },
      // Invalid: a count the group cannot hold, and help of no known channel.
      { group: b.group, help: demonstration(b.problem.answer, 4), note: 'too many' },
      {
        group: d.group,
        help: { kind: 'hint', hint: { kind: 'length', length: 3 } } as unknown as Help,
        note: 'no such channel',
      },
    ]);
    // An untrained policy fails everything: only the valid reprompt changes its group.
    expect(m.all_fail_frac).toBe(1);
    expect(m.events).toEqual([
      'reprompt for group 1 rejected: a demonstration count must be 1 to 3, got 4',
      'reprompt for group 2 rejected: its help is none of retry, demonstration, refinement',
    ]);
    expect(m.interventions).toEqual([
      expect.objectContaining({
        group: 0,
        hint: null,
        scaffold: null,
        strength: 3,
        rewards: [1],
        author: 'writer',
      }),
    ]);
    const [helped, untouched] = trainer.rollouts;
    expect(helped.attempts.map((a) => a.written)).toEqual([false, false, false, true]);
    expect(helped.attempts.map((a) => a.reward)).toEqual([0, 0, 0, 1]);
    expect(helped.attempts[3].advantage).toBeGreaterThan(0);
    expect(helped.attempts[0].advantage).toBeLessThan(0);
    expect(untouched.attempts.every((a) => !a.written && a.advantage === 0)).toBe(true);
    // The update learned from the mixed group; written answers count in neither entropy nor length.
    expect(m.grad_norm).not.toBeNull();
    expect(Number.isFinite(m.entropy) && Number.isFinite(m.loss)).toBe(true);
    expect(m.skipped_steps).toBe(0);
    // The update saw the one informative group: its own three failures pushed down on their
    // tokens, the written answer pushed up (shaped) on exactly its answer and end tokens.
    expect(updates).toHaveLength(1);
    const answer = helped.attempts[3].answer;
    const rows = trainedRows(updates);
    const written = rows.filter((r) => r.text.endsWith(`=${answer}.`));
    expect(written).toHaveLength(1);
    expect(written[0].taking).toHaveLength(answer.length + 1);
    expect(written[0].taking.every((x) => x > 0)).toBe(true);
    const own = rows.filter((r) => r !== written[0]);
    expect(own.every((r) => r.taking.length > 0 && r.taking.every((x) => x < 0))).toBe(true);
  });

  it('a plain demonstration takes the weight of a sampled answer, a shaped one less', async () => {
    const { trainer, updates } = await writtenAnswerStep(2, ([a, b]) => [
      { group: a.group, help: demonstration(a.problem.answer, 1, 'plain'), note: 'plain' },
      { group: b.group, help: demonstration(b.problem.answer, 1), note: 'shaped' },
    ]);
    const rows = trainedRows(updates);
    const [plainGroup, shapedGroup] = trainer.rollouts;
    const writtenRow = (g: (typeof trainer.rollouts)[number]) =>
      rows.find((r) => r.text.endsWith(`=${g.attempts[3].answer}.`) && r.taking.length > 0)!;
    // Every trained token of every answer carries the same 1/tokens share: the plain answer's
    // weight is that share times its advantage on every token, as a sampled answer's would be.
    const sampled = rows.find((r) => r.taking.length > 0 && r.taking[0] < 0)!;
    const share = sampled.taking[0] / plainGroup.attempts[0].advantage;
    const plain = writtenRow(plainGroup).taking;
    for (const w of plain) expect(w).toBeCloseTo(share * plainGroup.attempts[3].advantage, 6);
    // The shaped one is weighted by f'(p) < 1 on tokens an untrained policy finds unlikely.
    const shaped = writtenRow(shapedGroup).taking;
    for (const w of shaped) expect(w).toBeLessThan(0.5 * share * shapedGroup.attempts[3].advantage);
  });

  it('a refinement under a critique joins the group, passing ones first, learned unhinted and shaped', async () => {
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    const critique = { kind: 'critique', attempt: 'z', wrongAt: 0 } as const;
    const refiner: Intervention = {
      name: 'refiner',
      async plan(batch): Promise<Reprompt[]> {
        if (batch.round > 0) return [];
        const [a, b, d] = batch.groups;
        return [
          { group: a.group, help: { kind: 'refinement', critique, count: 1 }, note: 'refine' },
          // Invalid: no critique to refine from, and a count the group cannot hold.
          {
            group: b.group,
            help: { kind: 'refinement', count: 1 } as unknown as Help,
            note: 'no critique',
          },
          { group: d.group, help: { kind: 'refinement', critique, count: 4 }, note: 'too many' },
        ];
      },
    };
    const updates = recordUpdates(model);
    const trainer = banditTrainer(model, 3, refiner);
    const m = await trainer.trainStep();
    expect(m.events).toEqual([
      'reprompt for group 1 rejected: a refinement needs a critique',
      'reprompt for group 2 rejected: a refinement count must be 1 to 3, got 4',
    ]);
    // All G refinements were sampled (the log shows them); this seed draws both kinds.
    const [record] = m.interventions;
    expect(record).toMatchObject({ group: 0, hint: 'x_z', author: 'refiner' });
    expect(record.rewards).toHaveLength(4);
    expect(record.rewards).toContain(0);
    expect(record.rewards).toContain(1);
    const [helped] = trainer.rollouts;
    const refined = helped.attempts.map((a) => a.shaped);
    expect(refined).toEqual([false, false, false, true]);
    expect(helped.attempts[3].reward).toBe(1); // a passing refinement is the one chosen
    expect(helped.attempts[3].written).toBe(false);
    // The chosen refinement is trained in the unhinted prompt, pushed up on its answer tokens.
    const rows = trainedRows(updates);
    expect(rows.every((r) => !r.text.includes('x_z'))).toBe(true);
    const { tokens } = helped.attempts[3];
    const mine = rows.filter((r) => r.text === `^||1+1=${tokens.join('')}`);
    expect(mine).toHaveLength(1);
    expect(mine[0].taking).toHaveLength(tokens.length);
    expect(mine[0].taking.every((x) => x > 0)).toBe(true);
  });

  it('a refinement with a critique per answer samples one refinement under each', async () => {
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    const critique = (attempt: string) => ({ kind: 'critique', attempt, wrongAt: 0 }) as const;
    const refiner: Intervention = {
      name: 'refiner',
      async plan(batch): Promise<Reprompt[]> {
        if (batch.round > 0) return [];
        const [a, b] = batch.groups;
        const each = [critique('z'), critique('q'), critique('r')];
        return [
          {
            group: a.group,
            help: { kind: 'refinement', critique: each[0], perAnswer: each, count: 2 },
            note: 'each',
          },
          {
            group: b.group,
            help: { kind: 'refinement', critique: each[0], perAnswer: each.slice(0, 2), count: 3 },
            note: 'too many',
          },
        ];
      },
    };
    const trainer = banditTrainer(model, 2, refiner);
    const m = await trainer.trainStep();
    expect(m.events).toEqual([
      'reprompt for group 1 rejected: a refinement count of 3 needs as many critiques per answer, got 2',
    ]);
    // One refinement per critique was sampled (three, not G), and two join the group.
    expect(m.interventions[0].rewards).toHaveLength(3);
    expect(m.rollouts).toBe(2 * 4 + 3);
    const [helped] = trainer.rollouts;
    expect(helped.attempts.map((a) => a.shaped)).toEqual([false, false, true, true]);
  });

  it('context distillation learns the hinted re-attempts in the unhinted prompt, at its weight', async () => {
    const hint = { kind: 'length', length: 1 } as const;
    const step = async (distillHint: Hint) => {
      const { m, updates } = await oneHelpedStep({
        kind: 'retry',
        hint,
        learn: 'as-sampled',
        distill: { hint: distillHint, weight: 0.5 },
      });
      const rows = trainedRows(updates);
      // Rows without the hint are the distilled ones: every re-attempt's drawn tokens.
      const hinted = renderHint(hint);
      const distilled = rows.filter((r) => !r.text.includes(hinted) && r.taking.length > 0);
      return { m, distilled, hinted };
    };
    const own = await step(hint);
    expect(own.m.context_distilled).toBe(4);
    expect(own.m.rollouts).toBe(4 + 4);
    expect(own.distilled).toHaveLength(4);
    // λ per token, averaged over the distilled tokens: the weights sum to λ.
    const total = own.distilled.flatMap((r) => r.taking).reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(0.5, 5);
    expect(own.distilled.every((r) => r.text.startsWith('^||1+1='))).toBe(true);
    // Another hint (a placebo): G more answers are drawn under it, and those are distilled.
    const other = await step({ kind: 'length', length: 2 });
    expect(other.m.context_distilled).toBe(4);
    expect(other.m.rollouts).toBe(4 + 4 + 4);
    expect(other.m.sampled_tokens).toBeGreaterThan(own.m.sampled_tokens ?? 0);
    expect(other.distilled).toHaveLength(4);
  });

  it('a refinement that went on from a scaffold is learned whole, its forced start included', async () => {
    const { trainer, updates, m } = await oneHelpedStep({
      kind: 'refinement',
      critique: { kind: 'critique', attempt: 'z', wrongAt: 0 },
      scaffold: 'a', // forced: every refinement passes
      count: 1,
    });
    expect(m.interventions[0].rewards).toEqual([1, 1, 1, 1]);
    const [g] = trainer.rollouts;
    const refinement = g.attempts[3];
    expect(refinement.shaped).toBe(true);
    expect(refinement.tokens[0]).toBe('a');
    expect(refinement.probs[0]).toBeNaN(); // forced, not drawn
    const rows = trainedRows(updates);
    const mine = rows.filter((r) => r.text === `^||1+1=${refinement.tokens.join('')}`);
    expect(mine).toHaveLength(1);
    expect(mine[0].taking).toHaveLength(refinement.tokens.length);
    expect(mine[0].taking.every((x) => x > 0)).toBe(true);
  });

  it('a retry learned unhinted-shaped has every re-attempt learned whole and shaped, in the unhinted prompt', async () => {
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    const updates = recordUpdates(model);
    const trainer = new GrpoTrainer(
      model.be,
      model,
      bandit,
      config({ prompts: 2, groupSize: 4, keepFailed: 1, maxRounds: 1, seed: 4 }),
      helpEveryGroup('shaper', {
        help: {
          kind: 'retry',
          hint: { kind: 'length', length: 7 },
          scaffold: 'b',
          learn: 'unhinted-shaped',
        },
        note: 'shaped',
      }),
    );
    await trainer.trainStep();
    for (const g of trainer.rollouts) {
      expect(g.attempts.map((a) => a.shaped)).toEqual([false, true, true, true]);
      expect(g.attempts.slice(1).every((a) => a.tokens[0] === 'b')).toBe(true);
    }
    const rows = trainedRows(updates).map((r) => r.text);
    // Re-attempts in the unhinted prompt with their scaffold; the kept failure as drawn.
    // (A group whose kept answer passes too is all-equal and not trained on.)
    const reattempts = rows.filter((t) => t.startsWith('^||1+1=b')).length;
    expect(reattempts).toBeGreaterThan(0);
    expect(reattempts % 3).toBe(0);
    expect(rows.every((t) => !t.includes('#7'))).toBe(true);
  });

  it('a retry learned unhinted-shaped-drawn shapes only the drawn tokens; a credited scaffold keeps the plain weight', async () => {
    const weightsOf = async (learn: 'unhinted-shaped' | 'unhinted-shaped-drawn') => {
      const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
      const updates = recordUpdates(model);
      const trainer = new GrpoTrainer(
        model.be,
        model,
        bandit,
        config({ prompts: 2, groupSize: 4, keepFailed: 1, maxRounds: 1, seed: 4 }),
        helpEveryGroup('shaper', {
          help: {
            kind: 'retry',
            hint: { kind: 'length', length: 7 },
            scaffold: 'b',
            creditScaffold: true,
            learn,
          },
          note: 'shaped',
        }),
      );
      await trainer.trainStep();
      // Every re-attempt passes (b is rewarded): per row, the forced b's weight and the others'.
      return updates.flatMap(({ batch, weights }) =>
        Array.from({ length: batch.B }, (_, i) => {
          const row = batch.tokens.subarray(i * batch.T, (i + 1) * batch.T);
          const w = weights!.subarray(i * batch.T, (i + 1) * batch.T);
          const at = decode(row).indexOf('=b');
          if (at < 0) return [];
          // The weight of a token sits at the position before it.
          return [{ forced: w[at], drawn: Array.from(w.subarray(at + 1)).filter((x) => x) }];
        }).flat(),
      );
    };
    const sampled = await weightsOf('unhinted-shaped-drawn');
    const whole = await weightsOf('unhinted-shaped');
    expect(sampled.length).toBeGreaterThan(0);
    // Shaping weighs a token by γp/(p + γ)² ≤ 1/4 of the plain weight.
    for (const r of sampled) {
      expect(r.forced).toBeGreaterThan(0);
      expect(r.drawn.every((x) => x > 0 && x <= r.forced / 4 + 1e-9)).toBe(true);
    }
    // Whole: the forced b is shaped too, far under its plain weight.
    sampled.forEach((r, i) => expect(whole[i].forced).toBeLessThan(r.forced / 4 + 1e-9));
  });

  it('measures every level the run has trained at, and their mean (eval_accuracy_all)', async () => {
    const family = createArithmetic({ ops: ['+'] });
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 11);
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
    const trainer = new GrpoTrainer(model.be, model, family, c, noIntervention);
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
      const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 5);
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
      const trainer = new GrpoTrainer(model.be, model, family, c, watcher);
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
