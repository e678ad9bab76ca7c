import { TaskError } from './errors.ts';
import { renderHint } from './hint-syntax.ts';
import { BOS, EOS, decode, encode } from './tokenizer.ts';
import type { Hint, Problem } from './types.ts';

/**
 * The sequence the policy sees:
 *
 *   ^ | <hint> | <problem> = <answer> .
 *
 * `^` begin, `|…|` the hint slot (kept when empty, `||`, so every prompt has one shape), `=` the
 * answer marker, `.` end of answer. The hint comes first so that the distance from each answer
 * character to the problem characters it depends on does not change with the hint's length: a
 * small model learns one lookup, hinted or not (measured: a 2-layer d=32 model learned 3-digit
 * addition in 3,000 steps this way and stayed below 15% with the hint between problem and answer).
 * Arithmetic writes every number units digit first: `^||274+983=168.` is 472+389 = 861, with a
 * hint `^|c110|274+983=168.`. Listlang shows three examples and the answer is the program:
 * `^|+s|59898>06990,31909>01240,10184>22591=isl.`. A scaffold (the first characters of the
 * answer, forced; given loss only where the help says so, src/rl/learned-answer.ts) goes right
 * after `=`, inside the answer.
 */
export const HINT_MARK = '|';
export const ANSWER_MARK = '=';

export interface PromptOptions {
  /** Rendered into the hint slot. */
  readonly hint?: Hint;
  /** Forced start of the answer (see scaffoldText). */
  readonly scaffold?: string;
}

/** Prompt text without the begin token and without any scaffold. */
export function promptText(problem: Problem, hint?: Hint): string {
  return `${HINT_MARK}${hint ? renderHint(hint) : ''}${HINT_MARK}${problem.text}${ANSWER_MARK}`;
}

export interface EncodedPrompt {
  /** Begin token, prompt, then the scaffold tokens: where sampling continues from. */
  readonly tokens: Uint32Array;
  /** Index of the first answer token (the first scaffold token, if any). */
  readonly answerStart: number;
  /** Index of the first token the policy samples (= tokens.length). */
  readonly sampleStart: number;
}

export function encodePrompt(problem: Problem, options: PromptOptions = {}): EncodedPrompt {
  const prompt = encode(promptText(problem, options.hint));
  const scaffold = encode(options.scaffold ?? '');
  const tokens = new Uint32Array(1 + prompt.length + scaffold.length);
  tokens[0] = BOS;
  tokens.set(prompt, 1);
  tokens.set(scaffold, 1 + prompt.length);
  return { tokens, answerStart: 1 + prompt.length, sampleStart: tokens.length };
}

export interface EncodedSequence {
  /** Begin, prompt, answer, end. */
  readonly tokens: Uint32Array;
  /** Index of the first answer token. */
  readonly answerStart: number;
  /** Index of the first token that takes loss: after the prompt and the scaffold. */
  readonly lossStart: number;
}

/**
 * A whole training sequence for (problem, hint?, answer). `answer` is the full answer text
 * without the end token; with a scaffold it must start with it (the scaffold is part of the
 * answer the policy writes, it just takes no loss).
 */
export function encodeSequence(
  problem: Problem,
  answer: string,
  options: PromptOptions = {},
): EncodedSequence {
  const scaffold = options.scaffold ?? '';
  if (!answer.startsWith(scaffold)) {
    throw new TaskError(
      `answer ${JSON.stringify(answer)} does not start with its scaffold ${JSON.stringify(scaffold)}`,
    );
  }
  const prompt = encode(promptText(problem, options.hint));
  const body = encode(answer);
  const tokens = new Uint32Array(1 + prompt.length + body.length + 1);
  tokens[0] = BOS;
  tokens.set(prompt, 1);
  tokens.set(body, 1 + prompt.length);
  tokens[tokens.length - 1] = EOS;
  const answerStart = 1 + prompt.length;
  return { tokens, answerStart, lossStart: answerStart + scaffold.length };
}

/** The first k characters of the reference answer: a scaffold, forced as the start of the answer. */
export function scaffoldText(problem: Problem, k: number): string {
  if (!Number.isInteger(k) || k < 0 || k > problem.answer.length) {
    throw new TaskError(`scaffold of ${k} characters: the answer has ${problem.answer.length}`);
  }
  return problem.answer.slice(0, k);
}

/**
 * The answer text in `tokens` from `answerStart` up to the first end token (scaffold included),
 * and whether an end token was reached. Feed `text` to verify.
 */
export function decodeAnswer(
  tokens: ArrayLike<number>,
  answerStart: number,
): { text: string; ended: boolean } {
  const ids = Array.from(tokens).slice(answerStart);
  const end = ids.indexOf(EOS);
  return { text: decode(end < 0 ? ids : ids.slice(0, end)), ended: end >= 0 };
}
