import type { Backend } from '../engine/backend.ts';
import { modelConfig, type ModelConfig, type ModelSize } from '../model/config.ts';
import { AdamW, DEFAULT_OPTIMIZER } from '../model/optimizer.ts';
import { Transformer } from '../model/transformer.ts';
import {
  PAD,
  createArithmetic,
  type ArithOp,
  VOCAB_SIZE,
  createRng,
  critiqueOf,
  encodeSequence,
  makeHint,
  nearMiss,
  ownSolution,
  randomHint,
  statedAnswerOfWhole,
  tokenId,
  type Hint,
  type Problem,
  type Rng,
  type TaskFamily,
} from '../tasks/index.ts';
import { warmupCosine } from './lr-schedule.ts';
import { weightedBatch, type WeightedSequence } from './sequences.ts';

/** The kinds of hint a warm-up draws besides the random ones (WarmupSpec's own fields). */
type WarmupHints = Pick<WarmupSpec, 'lengthHintShare' | 'critique' | 'firstStepShare'>;

/** One level of the warm-up mix: its share of examples, and how many of them carry a hint. */
export interface WarmupLevel {
  level: number;
  weight: number;
  /** Probability that an example of this level has a random hint in its hint slot. */
  hintRate: number;
  /**
   * Arithmetic only: this entry's problems use this operation instead of the family's. A digit
   * place can then be taught by one operation (4-digit multiplication) and be new to another.
   */
  op?: ArithOp;
  /**
   * Teach the reference answer alone, without the working the family's own solution writes
   * (TaskFamily.teacherSolution): the way many answers are shown, so a base can learn a level without
   * ever writing its working there.
   */
  answerOnly?: boolean;
}

export interface WarmupSpec {
  seed: number;
  steps: number;
  batch: number;
  lr: number;
  warmupSteps: number;
  mix: readonly WarmupLevel[];
  /**
   * Share of hints that state only the answer's length; absent, the kind is drawn uniformly. A
   * length hint leaves the whole answer to be found, where a prefix or uses hint gives part away.
   */
  lengthHintShare?: number;
  /**
   * Share of hints that are critiques of a near miss (the answer is then the reference), marked
   * within `maxReveal` as critique-guided refinement marks them: what makes a policy read one.
   * With `minMark`, only critiques marked after at least that many right characters (the draw
   * becomes another kind of hint otherwise): one that says the answer is wrong from its start
   * leaves all of it to be found. With `levels`, critiques only at those levels: a reading learned
   * where the policy already writes the answer teaches it no new level.
   */
  critique?: { share: number; maxReveal: number; minMark?: number; levels?: readonly number[] };
  /**
   * Share of hints that give the answer's first character, even where that is the whole answer:
   * beside longer answers under the same hint, the policy has to tell from the examples whether
   * its answer is done. Drawn before `lengthHintShare`, which then applies to the rest.
   */
  firstStepShare?: number;
}

/**
 * A further cosine cycle from the weights the warm-up ends with (a warm restart, fresh AdamW
 * state), on the same mix and fresh data: it lifts a skill the first cycle left flat.
 */
export interface WarmRestart {
  steps: number;
  lr: number;
  /** Added to the warm-up's seed to seed this cycle's data, so it differs from the first's. */
  seedOffset: number;
  /** This cycle's own mix, where it differs from the first cycle's. */
  mix?: readonly WarmupLevel[];
  /** This cycle's own share of first-character hints (WarmupSpec.firstStepShare). */
  firstStepShare?: number;
}

/** The spec of a warm restart from the first cycle's `spec`: its mix and hints unless it has its own. */
export function restartSpec(spec: WarmupSpec, restart: WarmRestart): WarmupSpec {
  const { steps, lr, seedOffset, mix, firstStepShare } = restart;
  return {
    ...spec,
    ...(mix ? { mix } : {}),
    ...(firstStepShare !== undefined ? { firstStepShare } : {}),
    steps,
    lr,
    seed: spec.seed + seedOffset,
  };
}

export interface WarmupProgress {
  step: number;
  steps: number;
  loss: number;
  lr: number;
  /** Characters of the answers this step's examples were taught, working and all (end tokens aside). */
  answerChars: number;
  /** Of those, the characters that state the final answer (statedAnswerOfWhole): the reference ledger's. */
  referenceChars: number;
}

function pickLevel(mix: readonly WarmupLevel[], rng: Rng): WarmupLevel {
  const total = mix.reduce((s, m) => s + m.weight, 0);
  let u = rng.float() * total;
  for (const m of mix) {
    u -= m.weight;
    if (u < 0) return m;
  }
  return mix[mix.length - 1];
}

const OPERATION_FAMILIES = new Map<ArithOp, TaskFamily>();

function operationFamily(family: TaskFamily, op: ArithOp): TaskFamily {
  if (family.id !== 'arithmetic') {
    throw new Error(`warm-up: an operation (${op}) is given for ${family.id}, not arithmetic`);
  }
  let f = OPERATION_FAMILIES.get(op);
  if (!f) OPERATION_FAMILIES.set(op, (f = createArithmetic({ ops: [op] })));
  return f;
}

/**
 * One supervised example: a right answer as the policy writes it (ownSolution, or the reference
 * alone for an `answerOnly` level) after the prompt, a random hint of any kind at the level's hint
 * rate. Seeing true hints of every type next to the answers they describe is what
 * makes the policy hint-literate. Critiques come from `critiqueRng` and replace the hint drawn from
 * `rng`, so with a stream of their own the problems and every other hint are those of the same
 * warm-up without critiques: the data seed alone moves a base's gate tenfold and more.
 */
export function warmupExample(
  family: TaskFamily,
  mix: readonly WarmupLevel[],
  rng: Rng,
  hints: WarmupHints = {},
  critiqueRng: Rng = rng,
) {
  const m = pickLevel(mix, rng);
  const source = m.op === undefined ? family : operationFamily(family, m.op);
  const problem = source.sample(m.level, rng);
  // The hint is drawn even where a critique replaces it, so the data stream stays the same.
  const drawn = rng.chance(m.hintRate) ? warmupHint(problem, rng, hints) : undefined;
  const hint = drawn && (critiqueOfNearMiss(problem, critiqueRng, hints) ?? drawn);
  const target = m.answerOnly ? problem.answer : ownSolution(problem);
  return { problem, hint, target, sequence: encodeSequence(problem, target, { hint }) };
}

function critiqueOfNearMiss(problem: Problem, rng: Rng, { critique }: WarmupHints): Hint | null {
  if (!critique) return null;
  if (critique.levels !== undefined && !critique.levels.includes(problem.level)) return null;
  if (!rng.chance(critique.share)) return null;
  const c = critiqueOf(problem, nearMiss(problem, rng), critique.maxReveal);
  if (!c || (critique.minMark !== undefined && (c.wrongAt ?? -1) < critique.minMark)) return null;
  return c;
}

function warmupHint(
  problem: Problem,
  rng: Rng,
  { lengthHintShare, firstStepShare }: WarmupHints,
): Hint {
  if (firstStepShare !== undefined && rng.chance(firstStepShare)) {
    return { kind: 'prefix', text: problem.answer.slice(0, 1) };
  }
  const length =
    lengthHintShare !== undefined && rng.chance(lengthHintShare)
      ? makeHint(problem, 'length', 1, rng)
      : null;
  return length ?? randomHint(problem, rng);
}

/** Architecture options on top of a model size (see ModelConfig). */
export interface PolicyOptions {
  /** > 0: a digit-place embedding over the vocabulary's digits, places 1…maxPlace. */
  maxPlace?: number;
  /** false: no positional encoding (NoPE). */
  rope?: boolean;
  /** Transformer blocks instead of the preset's number. */
  layers?: number;
}

/** A fresh policy of a preset, initialised from the seed. */
export function freshPolicy(
  be: Backend,
  preset: ModelSize,
  seed: number,
  opts: PolicyOptions = {},
): Transformer {
  const config: ModelConfig = { ...modelConfig(preset, VOCAB_SIZE) };
  if (opts.maxPlace) config.places = { firstDigit: tokenId('0'), maxPlace: opts.maxPlace };
  if (opts.rope === false) config.rope = false;
  if (opts.layers !== undefined) config.layers = opts.layers;
  return Transformer.create(be, config, seed);
}

/**
 * Supervised warm-up of `model` (teacher forcing on reference answers, loss on answer and end
 * tokens only), AdamW with warm-up and cosine decay. Reproducible: the same model, spec and seed
 * give the same weights.
 */
export async function runWarmup(
  model: Transformer,
  family: TaskFamily,
  spec: WarmupSpec,
  onProgress?: (p: WarmupProgress) => void | Promise<void>,
  /** Steps between progress reports (also step 0 and the last step). */
  progressEvery = 50,
): Promise<Transformer> {
  const be = model.be;
  const opt = new AdamW(model, {
    ...DEFAULT_OPTIMIZER,
    lr: spec.lr,
    weightDecay: 0.01,
    maxGradNorm: 1,
  });
  const rng = createRng(spec.seed).fork('warmup-data');
  const critiqueRng = createRng(spec.seed).fork('warmup-critiques');
  for (let step = 0; step < spec.steps; step++) {
    const drawn = Array.from({ length: spec.batch }, () =>
      warmupExample(family, spec.mix, rng, spec, critiqueRng),
    );
    const examples = drawn.map((d) => d.sequence);
    const answerTokens = examples.reduce((n, e) => n + e.tokens.length - e.lossStart, 0);
    const seqs: WeightedSequence[] = examples.map((e) => ({
      tokens: e.tokens,
      lossStart: e.lossStart,
      weight: 1 / answerTokens,
    }));
    const { batch, weights } = weightedBatch(seqs, PAD);
    model.forwardTrain(batch);
    const lr = warmupCosine(step, spec.steps, spec.lr, spec.warmupSteps);
    let progress: WarmupProgress | null = null;
    if (onProgress && (step % progressEvery === 0 || step === spec.steps - 1)) {
      const { logp } = await model.readTrainStats();
      let loss = 0;
      for (let n = 0; n < logp.length; n++) loss -= weights[n] * logp[n];
      const answerChars = answerTokens - examples.length; // one end token an example
      const referenceChars = drawn.reduce(
        (n, d) => n + statedAnswerOfWhole(d.problem, d.target).length,
        0,
      );
      progress = { step, steps: spec.steps, loss, lr, answerChars, referenceChars };
    }
    model.backward(weights);
    opt.update(lr);
    // After the update, so that a caller may run the model (an eval) inside the callback.
    if (progress) await onProgress?.(progress);
  }
  await be.flush();
  opt.free();
  return model;
}
