import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpu-backend.ts';
import { loadCheckpoint, saveCheckpoint } from '../model/checkpoint.ts';
import { parameterCount } from '../model/param-spec.ts';
import { Transformer } from '../model/transformer.ts';
import {
  createArithmetic,
  createListlang,
  createRng,
  decode,
  hintHolds,
  ownSolution,
  revealedFraction,
  verifyAnswer,
  worked,
} from '../tasks/index.ts';
import { fixedEvalSet } from './eval-set.ts';
import { greedyAccuracy } from './sampler.ts';
import { freshPolicy, restartSpec, runWarmup, warmupExample, type WarmupSpec } from './warmup.ts';
import { TEST_MODEL_CONFIG } from './testing/test-model-config.ts';

const SPEC: WarmupSpec = {
  seed: 5,
  steps: 101,
  batch: 16,
  lr: 3e-3,
  warmupSteps: 10,
  mix: [{ level: 1, weight: 1, hintRate: 0.3 }],
};

describe('supervised warm-up', () => {
  it('is reproducible, and a progress callback that runs the model changes nothing', async () => {
    const family = createArithmetic({ ops: ['+'] });
    const plain = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 9);
    await runWarmup(plain, family, SPEC);

    const probed = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 9);
    const evals: number[] = [];
    const losses: number[] = [];
    const evalSet = fixedEvalSet(family, 1, 20);
    await runWarmup(probed, family, SPEC, async (p) => {
      losses.push(p.loss);
      evals.push((await greedyAccuracy(probed, family, evalSet)).accuracy);
    });

    expect(evals).toHaveLength(3); // steps 0, 50 and 100 (the last)
    expect(losses[losses.length - 1]).toBeLessThan(losses[0]);
    const a = await plain.params.toTensors();
    const b = await probed.params.toTensors();
    a.forEach((t, i) => expect(b[i].data).toEqual(t.data));
  });

  it('runs a warm restart on its own data, and continuing a saved checkpoint is the same run', async () => {
    const family = createArithmetic({ ops: ['+'] });
    const first = { ...SPEC, steps: 8 };
    const restart = restartSpec(first, { steps: 6, lr: 1e-3, seedOffset: 11 });
    expect(restart).toEqual({ ...first, steps: 6, lr: 1e-3, seed: 16 });

    // In one process, as `npm run pretrain` runs a recipe's restarts…
    const inMemory = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 9);
    await runWarmup(inMemory, family, first);
    const bytes = await saveCheckpoint(inMemory);
    await runWarmup(inMemory, family, restart);
    // …and from the first cycle's checkpoint, as `npm run pretrain -- --init` does.
    const resumed = loadCheckpoint(new CpuBackend(), bytes).model;
    const before = await resumed.params.toTensors();
    await runWarmup(resumed, family, restart);
    const a = await inMemory.params.toTensors();
    const b = await resumed.params.toTensors();
    a.forEach((t, i) => expect(b[i].data).toEqual(t.data));
    expect(b.some((t, i) => t.data.some((v, j) => v !== before[i].data[j]))).toBe(true);
  });

  it("takes a restart's own mix and first-character share, and the first cycle's otherwise", () => {
    const mix = [{ level: 2, weight: 1, hintRate: 1 }];
    const restart = restartSpec(SPEC, {
      steps: 4,
      lr: 1e-3,
      seedOffset: 1,
      mix,
      firstStepShare: 0.4,
    });
    expect(restart).toEqual({ ...SPEC, mix, firstStepShare: 0.4, steps: 4, lr: 1e-3, seed: 6 });
    // pretrain builds every restart from the first cycle's spec.
    const plain = restartSpec(SPEC, { steps: 2, lr: 1e-4, seedOffset: 2 });
    expect(plain).toEqual({ ...SPEC, steps: 2, lr: 1e-4, seed: 7 });
    expect(plain.firstStepShare).toBeUndefined();
  });

  it('gives the first character at the share it is given, the whole of a one-op answer too', () => {
    const share = (level: number, firstStepShare: number | undefined) => {
      const rng = createRng(8);
      let first = 0;
      for (let i = 0; i < 400; i++) {
        const { problem, hint } = warmupExample(
          createListlang(),
          [{ level, weight: 1, hintRate: 1 }],
          rng,
          { lengthHintShare: 0.8, firstStepShare },
        );
        if (hint?.kind === 'prefix' && hint.text.length === 1) {
          expect(hint.text).toBe(problem.answer[0]);
          expect(hintHolds(problem, hint)).toBe(true);
          first++;
        }
      }
      return first / 400;
    };
    // One op: nothing else gives the first op (a prefix never states a whole answer otherwise).
    expect(share(1, undefined)).toBe(0);
    expect(share(1, 0.4)).toBeGreaterThan(0.33);
    expect(share(1, 0.4)).toBeLessThan(0.47);
    // Two ops: 0.4, plus the prefix hints of the uniform draw (a third of the remaining 0.6·0.2).
    expect(share(2, undefined)).toBeLessThan(0.12);
    expect(share(2, 0.4)).toBeGreaterThan(0.4);
    expect(share(2, 0.4)).toBeLessThan(0.52);
  });

  it('samples a level from its own operation when the mix names one', () => {
    const addition = createArithmetic({ ops: ['+'] });
    const mix = [
      { level: 2, weight: 1, hintRate: 0 },
      { level: 4, weight: 1, hintRate: 0, op: '*' as const },
    ];
    const rng = createRng(3);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { problem } = warmupExample(addition, mix, rng);
      const { op, a } = problem.data as { op: string; a: string };
      seen.add(`${op}${a.length}`);
    }
    expect([...seen].sort()).toEqual(['*4', '+2']);
    expect(() => warmupExample(createListlang(), [mix[1]], createRng(3))).toThrow(
      /operation \(\*\) is given for listlang/,
    );
  });

  it('teaches the working where the family writes it, and the answer alone where told to', () => {
    const mix = [
      { level: 3, weight: 1, hintRate: 0 },
      { level: 5, weight: 1, hintRate: 0, answerOnly: true },
    ];
    const rng = createRng(4);
    for (let i = 0; i < 50; i++) {
      const { problem, sequence } = warmupExample(worked, mix, rng);
      const text = decode(sequence.tokens.slice(sequence.answerStart, -1));
      expect(text).toBe(problem.level === 5 ? problem.answer : ownSolution(problem));
      expect(verifyAnswer(problem, text).reward).toBe(1);
    }
  });

  it('reports the characters it taught, and of them those that state the answer', async () => {
    // Room for two rows of working and their sum.
    const config = { ...TEST_MODEL_CONFIG, contextLength: 64 };
    const model = Transformer.create(new CpuBackend(), config, 9);
    const spec = { ...SPEC, steps: 1, batch: 8, mix: [{ level: 2, weight: 1, hintRate: 0 }] };
    let seen: { answerChars: number; referenceChars: number } | null = null;
    await runWarmup(model, worked, spec, (p) => {
      seen = p;
    });
    // The batch the warm-up drew, again: the rows of working and their sum, then the product.
    const rng = createRng(spec.seed).fork('warmup-data');
    const drawn = Array.from({ length: 8 }, () => warmupExample(worked, spec.mix, rng));
    expect(seen).toMatchObject({
      answerChars: drawn.reduce((n, d) => n + ownSolution(d.problem).length, 0),
      referenceChars: drawn.reduce((n, d) => n + d.problem.answer.length, 0),
    });
  });

  it('critiques near misses at the share it is given, each true and within its cap', () => {
    const mix = [{ level: 3, weight: 1, hintRate: 1 }];
    for (const family of [createArithmetic({ ops: ['+'] }), createListlang()]) {
      const rng = createRng(6);
      const critique = { share: 0.5, maxReveal: 0.8 };
      let critiques = 0;
      for (let i = 0; i < 400; i++) {
        const { problem, hint } = warmupExample(family, mix, rng, { critique });
        if (hint?.kind !== 'critique') continue;
        critiques++;
        expect(hintHolds(problem, hint)).toBe(true);
        expect(revealedFraction(problem, hint)).toBeLessThanOrEqual(0.8);
      }
      // Half, less the near misses that happened to be right programs.
      expect(critiques / 400).toBeGreaterThan(0.4);
      expect(critiques / 400).toBeLessThan(0.6);
    }
  });

  it('critiques only near misses marked after a right start, given a least mark', () => {
    const mix = [{ level: 2, weight: 1, hintRate: 1 }];
    const marks = (minMark?: number) => {
      const rng = createRng(8);
      const seen: (number | null)[] = [];
      for (let i = 0; i < 400; i++) {
        const { problem, hint } = warmupExample(createListlang(), mix, rng, {
          critique: { share: 0.5, maxReveal: 0.8, minMark },
        });
        if (hint?.kind !== 'critique') continue;
        expect(hintHolds(problem, hint)).toBe(true);
        seen.push(hint.wrongAt);
      }
      return seen;
    };
    // Two-op answers are two characters: a mark at the start, or after the first op.
    expect(marks()).toContain(0);
    const marked = marks(1);
    expect(marked.length).toBeGreaterThan(40);
    expect(marked.every((k) => k !== null && k >= 1)).toBe(true);
  });

  it('draws critiques from their own stream, leaving the problems and other hints as they were', () => {
    const mix = [
      { level: 1, weight: 1, hintRate: 0.5 },
      { level: 2, weight: 1, hintRate: 1 },
    ];
    const family = createListlang();
    const plainRng = createRng(12);
    const dataRng = createRng(12);
    const critiqueRng = createRng(12).fork('critiques');
    const critique = { share: 0.3, maxReveal: 0.8 };
    let critiques = 0;
    for (let i = 0; i < 300; i++) {
      const plain = warmupExample(family, mix, plainRng, { lengthHintShare: 0.8 });
      const withCritiques = warmupExample(
        family,
        mix,
        dataRng,
        { lengthHintShare: 0.8, critique },
        critiqueRng,
      );
      expect(withCritiques.problem).toEqual(plain.problem);
      if (withCritiques.hint?.kind === 'critique') {
        critiques++;
        expect(plain.hint).toBeDefined();
      } else expect(withCritiques.hint).toEqual(plain.hint);
    }
    expect(critiques).toBeGreaterThan(40);
  });

  it('critiques only at the levels it is given', () => {
    const mix = [
      { level: 1, weight: 1, hintRate: 1 },
      { level: 2, weight: 1, hintRate: 1 },
    ];
    const critiquedLevels = (levels?: readonly number[]) => {
      const rng = createRng(9);
      const seen = new Set<number>();
      for (let i = 0; i < 400; i++) {
        const { problem, hint } = warmupExample(createListlang(), mix, rng, {
          critique: { share: 0.5, maxReveal: 0.8, levels },
        });
        if (hint?.kind === 'critique') seen.add(problem.level);
      }
      return [...seen].sort();
    };
    expect(critiquedLevels()).toEqual([1, 2]);
    expect(critiquedLevels([2])).toEqual([2]);
    expect(critiquedLevels([1])).toEqual([1]);
  });

  it('draws the share of length hints it is given, and every kind when none is', () => {
    const mix = [{ level: 2, weight: 1, hintRate: 1 }];
    const lengthShare = (share: number | undefined) => {
      const rng = createRng(4);
      let length = 0;
      for (let i = 0; i < 400; i++) {
        if (
          warmupExample(createListlang(), mix, rng, { lengthHintShare: share }).hint?.kind ===
          'length'
        )
          length++;
      }
      return length / 400;
    };
    expect(lengthShare(1)).toBe(1);
    // Uniform over length, uses and prefix; a 2-op answer has a uses and a prefix hint.
    const uniform = lengthShare(undefined);
    expect(uniform).toBeGreaterThan(0.25);
    expect(uniform).toBeLessThan(0.42);
    // 0.8 plus a uniform third of the remaining 0.2.
    const mostly = lengthShare(0.8);
    expect(mostly).toBeGreaterThan(0.8);
    expect(mostly).toBeLessThan(0.92);
  });

  it('builds a fresh policy with the options on top of the preset', () => {
    const be = new CpuBackend();
    const plain = freshPolicy(be, 'tiny', 1);
    expect(plain.config).toMatchObject({ layers: 2, dModel: 64 });
    expect(plain.config.places).toBeUndefined();
    const deep = freshPolicy(be, 'tiny', 1, { layers: 4, rope: false, maxPlace: 10 });
    expect(deep.config).toMatchObject({ layers: 4, dModel: 64, rope: false });
    expect(deep.config.places?.maxPlace).toBe(10);
    expect(parameterCount(deep.config)).toBeGreaterThan(parameterCount(plain.config));
  });
});
