// The sampler: a policy's attempts at problems — sampled, greedy or written — verified, and greedy
// accuracy over a set (what the trainer, the evals and the CLI tools all draw answers with).
import type { Generation } from '../model/generate.ts';
import { generate } from '../model/generate.ts';
import type { Transformer } from '../model/transformer.ts';
import {
  EOS,
  PAD,
  decodeAnswer,
  encode,
  encodePrompt,
  type Problem,
  type TaskFamily,
  type Verdict,
} from '../tasks/index.ts';
import { concatTokens } from './sequences.ts';
import type { Cue } from './reprompt/cue.ts';

export interface Attempt {
  problem: Problem;
  cue: Cue;
  /** The full answer text (scaffold included) and whether the end token was written. */
  answer: string;
  ended: boolean;
  verdict: Verdict;
  /** Sampled answer tokens (after any scaffold) and their log-probabilities. */
  tokens: Uint32Array;
  logprobs: Float32Array;
  /**
   * Learned as an off-policy answer (unhinted prompt, shaped loss): `written` by an intervention,
   * not sampled (its log-probabilities are unknown, NaN), or sampled under a `cue` (a critique, a
   * hint, a scaffold) and learned whole without it.
   */
  offPolicy?: 'written' | 'helped';
}

/** An answer the policy did not write (off-policy guidance), verified like any other. */
export function writtenAttempt(family: TaskFamily, problem: Problem, answer: string): Attempt {
  const body = encode(answer);
  const tokens = new Uint32Array(body.length + 1);
  tokens.set(body);
  tokens[body.length] = EOS;
  return {
    problem,
    cue: {},
    answer,
    ended: true,
    verdict: family.verify(problem, answer),
    tokens,
    logprobs: new Float32Array(tokens.length).fill(NaN),
    offPolicy: 'written',
  };
}

export interface SampleOptions {
  temperature: number;
  seed: number;
  counter: number;
  topK?: number;
}

/** Room for a wrong answer to run a little longer than the longest right one. */
const ANSWER_SLACK = 4;

/**
 * Sample one answer per (problem, help) in a single batched generation and verify each. The
 * policy writes every token after the scaffold itself; the scaffold counts as part of its answer.
 */
export async function attempt(
  model: Transformer,
  family: TaskFamily,
  items: readonly { problem: Problem; cue: Cue }[],
  opts: SampleOptions,
): Promise<Attempt[]> {
  if (items.length === 0) return [];
  const prompts = items.map(({ problem, cue }) => encodePrompt(problem, cue));
  const longest = Math.max(...items.map((it) => family.maxTokens(it.problem.level)));
  const shortest = Math.min(...prompts.map((p) => p.sampleStart));
  const maxNewTokens = Math.min(
    longest + ANSWER_SLACK - shortest,
    model.config.contextLength - Math.max(...prompts.map((p) => p.tokens.length)),
  );
  const gen: Generation = await generate(
    model,
    prompts.map((p) => p.tokens),
    {
      maxNewTokens,
      temperature: opts.temperature,
      topK: opts.topK,
      seed: opts.seed,
      counter: opts.counter,
      eos: EOS,
      pad: PAD,
    },
  );
  return items.map(({ problem, cue }, i) => {
    const p = prompts[i];
    const { text, ended } = decodeAnswer(concatTokens(p.tokens, gen.tokens[i]), p.answerStart);
    // An answer cut off before its end token is judged as written: it ran past any right answer.
    const verdict = family.verify(problem, text);
    return {
      problem,
      cue,
      answer: text,
      ended,
      verdict,
      tokens: gen.tokens[i],
      logprobs: gen.logprobs[i],
    };
  });
}

/** Greedy accuracy on a fixed problem set, each problem with the cue `cueFor` gives (null: left out). */
export async function greedyAccuracy(
  model: Transformer,
  family: TaskFamily,
  problems: readonly Problem[],
  cueFor: (p: Problem) => Cue | null = () => ({}),
  batch = 256,
): Promise<{ accuracy: number; n: number; attempts: Attempt[] }> {
  const items = problems.flatMap((problem) => {
    const cue = cueFor(problem);
    return cue ? [{ problem, cue }] : [];
  });
  const attempts: Attempt[] = [];
  for (let i = 0; i < items.length; i += batch) {
    attempts.push(
      ...(await attempt(model, family, items.slice(i, i + batch), {
        temperature: 0,
        seed: 0,
        counter: 0,
      })),
    );
  }
  const correct = attempts.filter((a) => a.verdict.reward === 1).length;
  return {
    accuracy: attempts.length ? correct / attempts.length : 0,
    n: attempts.length,
    attempts,
  };
}
