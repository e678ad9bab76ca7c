import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../../engine/cpu/cpu-backend.ts';
import { Transformer } from '../../model/transformer.ts';
import { EOS, createArithmetic, encode, worked, workedProblem } from '../../tasks/index.ts';
import { DEFAULT_GRPO, hardSamplesPerStep } from '../config.ts';
import { attempt } from '../sampler.ts';
import { answerChances, gateChance, rightForms, summariseGate } from './gate-chance.ts';
import { literacyProblems } from './literacy.ts';
import { runWarmup } from '../warmup.ts';
import { TEST_MODEL_CONFIG } from '../testing/test-model-config.ts';

describe('gate chance', () => {
  it('equals the chance sampling gave each answer it wrote, end token included', async () => {
    const family = createArithmetic({ ops: ['+'] });
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    await runWarmup(model, family, {
      seed: 4,
      steps: 60,
      batch: 16,
      lr: 3e-3,
      warmupSteps: 10,
      mix: [{ level: 1, weight: 1, hintRate: 0 }],
    });
    const problems = literacyProblems(family, 1, 40);
    const tries = await attempt(
      model,
      family,
      problems.map((problem) => ({ problem, cue: {} })),
      { temperature: 1, seed: 11, counter: 0 },
    );
    // Only answers whose text re-encodes to exactly the sampled tokens are comparable.
    const written = tries.filter(
      (a) => a.ended && [...encode(a.answer), EOS].join() === [...a.tokens].join(),
    );
    expect(written.length).toBeGreaterThan(20);
    const chances = await answerChances(model, written);
    written.forEach((a, i) => {
      const sampled = a.logprobs.reduce((s, x) => s + x, 0);
      expect(Math.log(chances[i])).toBeCloseTo(sampled, 3);
    });
    // Some sampled answers are wrong and some right, so the chances are not all one value.
    expect(new Set(chances.map((c) => c.toFixed(3))).size).toBeGreaterThan(5);

    const gate = await gateChance(model, family, 1, 40, DEFAULT_GRPO);
    const reference = await answerChances(
      model,
      problems.map((problem) => ({ problem, answer: problem.answer })),
    );
    expect(gate.chance).toBeCloseTo(reference.reduce((s, c) => s + c, 0) / 40, 6);
    expect(gate.problems).toBe(40);
  });

  it('adds up every right form: the working, and the answer alone where the family takes it', async () => {
    const p = workedProblem('47', 6);
    expect(rightForms(worked, p)).toEqual(['24,82>282', '282']);
    const sum = createArithmetic({ ops: ['+'] });
    const q = literacyProblems(sum, 2, 1)[0];
    expect(rightForms(sum, q)).toEqual([q.answer]);
    // Room for two rows of working and their sum.
    const config = { ...TEST_MODEL_CONFIG, contextLength: 64 };
    const model = Transformer.create(new CpuBackend(), config, 3);
    const problems = literacyProblems(worked, 2, 5);
    const parts = await answerChances(
      model,
      problems.flatMap((problem) =>
        rightForms(worked, problem).map((answer) => ({ problem, answer })),
      ),
    );
    const gate = await gateChance(model, worked, 2, 5, DEFAULT_GRPO);
    expect(gate.problems).toBe(5);
    expect(gate.chance).toBeCloseTo(parts.reduce((a, b) => a + b, 0) / 5, 12);
  });

  it('sums chances by answer and turns the mean into an expected wait', () => {
    const gate = summariseGate(
      2,
      [
        { answer: 'ht', chance: 0.006 },
        { answer: 'rs', chance: 0.001 },
        { answer: 'ht', chance: 0.002 },
        { answer: 'io', chance: 0.001 },
      ],
      100,
      2,
    );
    expect(gate.chance).toBeCloseTo(0.0025, 12);
    expect(gate.expectedWaitSteps).toBeCloseTo(4, 9);
    expect(gate.leaders.map((l) => l.answer)).toEqual(['ht', 'rs']);
    expect(gate.leaders[0].share).toBeCloseTo(0.8, 12);
    expect(gate.leaders[1].share).toBeCloseTo(0.1, 12);
    expect(summariseGate(2, [{ answer: 'rs', chance: 0 }], 100).expectedWaitSteps).toBe(Infinity);
  });

  it("counts a step's unhinted answers without its replayed prompts", () => {
    expect(hardSamplesPerStep(DEFAULT_GRPO)).toBe(112);
    expect(hardSamplesPerStep({ prompts: 16, groupSize: 8, replay: 0 })).toBe(128);
  });
});
