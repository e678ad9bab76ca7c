import { VOCAB } from './tokenizer.ts';
import type { Hint, HintKind, TaskId } from './types.ts';

/**
 * Hints render as one tag character and a payload, short enough for the prompt:
 *   `#4`   length: the answer has 4 characters
 *   `p86`  prefix: the answer starts with `86`
 *   `c011` carries: carry out of the first three columns, units first
 *   `k4`   steps: each row of the working has four steps (worked: four columns a partial product)
 *   `+rs`  uses: the program uses r and s (sorted; their order and place unknown)
 *   `x1_78` critique: your answer 178 is wrong from its second character on (`x178`: wrong
 *          somewhere; `x17_`: right so far, but it goes on)
 * None contains the prompt's markers `|` or `=`.
 */
const TAG: Record<HintKind, string> = {
  length: '#',
  prefix: 'p',
  steps: 'k',
  carries: 'c',
  uses: '+',
  critique: 'x',
};
const KIND_OF_TAG = new Map(Object.entries(TAG).map(([k, t]) => [t, k as HintKind]));

/** Marks, inside a critique's quoted attempt, the first character that is wrong. */
export const CRITIQUE_MARK = '_';

/**
 * What a critique may quote: every vocabulary character but the special tokens (pad, begin, end),
 * the prompt's markers and the critique's own mark.
 */
export const CRITIQUE_CHARS = VOCAB.filter((c) => !`~^.|=${CRITIQUE_MARK}`.includes(c)).join('');

/** Longest payload parseHint accepts: enough for every hint makeHint gives. */
export const MAX_HINT_PAYLOAD = 16;

export function renderHint(hint: Hint): string {
  switch (hint.kind) {
    case 'length':
      return TAG.length + String(hint.length);
    case 'prefix':
      return TAG.prefix + hint.text;
    case 'steps':
      return TAG.steps + String(hint.steps);
    case 'carries':
      return TAG.carries + hint.carries;
    case 'uses':
      return TAG.uses + hint.ops;
    case 'critique': {
      const { attempt, wrongAt } = hint;
      if (wrongAt === null) return TAG.critique + attempt;
      return TAG.critique + attempt.slice(0, wrongAt) + CRITIQUE_MARK + attempt.slice(wrongAt);
    }
  }
}

export type HintParse =
  { readonly ok: true; readonly hint: Hint } | { readonly ok: false; readonly reason: string };

/** What a family allows in hints: its kinds, and the characters its answers are made of. */
export interface HintGrammar {
  readonly family: TaskId;
  readonly kinds: readonly HintKind[];
  readonly answerChars: string;
}

/** Text → hint, or the reason it is not a well-formed hint of this family. */
export function parseHintWith(grammar: HintGrammar, text: string): HintParse {
  const fail = (reason: string): HintParse => ({ ok: false, reason });
  if (text.length === 0) return fail('empty hint');
  const kind = KIND_OF_TAG.get(text[0]);
  if (kind === undefined) {
    const tags = [...KIND_OF_TAG.keys()].join(' ');
    return fail(`unknown hint tag ${JSON.stringify(text[0])}; tags are ${tags}`);
  }
  if (!grammar.kinds.includes(kind)) return fail(`${grammar.family} has no ${kind} hints`);
  const payload = text.slice(1);
  if (payload.length === 0)
    return fail(`${kind} hint has nothing after ${JSON.stringify(text[0])}`);
  if (payload.length > MAX_HINT_PAYLOAD) {
    return fail(
      `${kind} hint is ${payload.length} characters long, the limit is ${MAX_HINT_PAYLOAD}`,
    );
  }
  const bad = (allowed: string) => [...payload].findIndex((c) => !allowed.includes(c));
  const badChar = (i: number, allowed: string) =>
    fail(`${kind} hint: ${JSON.stringify(payload[i])} at ${i + 1} is not one of ${allowed}`);
  switch (kind) {
    case 'length': {
      if (!/^[1-9][0-9]*$/.test(payload))
        return fail('length hint needs a positive integer like #4');
      return { ok: true, hint: { kind, length: Number(payload) } };
    }
    case 'steps': {
      if (!/^[1-9][0-9]*$/.test(payload))
        return fail('steps hint needs a positive integer like k4');
      return { ok: true, hint: { kind, steps: Number(payload) } };
    }
    case 'prefix': {
      const i = bad(grammar.answerChars);
      return i >= 0 ? badChar(i, grammar.answerChars) : { ok: true, hint: { kind, text: payload } };
    }
    case 'carries': {
      const i = bad('0123456789');
      return i >= 0 ? badChar(i, '0123456789') : { ok: true, hint: { kind, carries: payload } };
    }
    case 'uses': {
      const i = bad(grammar.answerChars);
      if (i >= 0) return badChar(i, grammar.answerChars);
      return { ok: true, hint: { kind, ops: [...payload].sort().join('') } };
    }
    case 'critique': {
      const i = bad(CRITIQUE_CHARS + CRITIQUE_MARK);
      if (i >= 0) return badChar(i, CRITIQUE_CHARS + CRITIQUE_MARK);
      const at = payload.indexOf(CRITIQUE_MARK);
      if (at !== payload.lastIndexOf(CRITIQUE_MARK))
        return fail(`critique hint has more than one ${CRITIQUE_MARK}`);
      if (at < 0) return { ok: true, hint: { kind, attempt: payload, wrongAt: null } };
      const attempt = payload.slice(0, at) + payload.slice(at + 1);
      return { ok: true, hint: { kind, attempt, wrongAt: at } };
    }
  }
}
