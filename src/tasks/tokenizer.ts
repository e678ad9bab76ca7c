import { TaskError, VocabularyError } from './errors.ts';

/**
 * One char-level vocabulary for every family. Each token is one character, so the text form of a
 * token sequence is exact and `decode(encode(s)) === s`. Special tokens have printable stand-ins
 * (`~` pad, `^` begin, `.` end of answer) so the inspector can show a whole sequence as text.
 *
 * The full lowercase alphabet is kept although listlang uses ten letters: the policy can then
 * write an unknown op (a real error to diagnose), and new ops or hint tags do not change the
 * vocabulary, so shipped checkpoints stay loadable.
 */
const SYMBOLS = [
  '~', // PAD
  '^', // BOS
  '.', // EOS: end of answer
  ...'0123456789',
  ...'abcdefghijklmnopqrstuvwxyz',
  '+', // addition; listlang hint "uses"
  '-',
  '*',
  '|', // opens the hint slot
  '=', // answer marker: the response starts after it
  '>', // listlang example: input>output
  ',', // listlang example separator
  '_', // listlang: pads a shortened list to its fixed width
  '#', // hint: answer length
] as const;

export const VOCAB: readonly string[] = SYMBOLS;
export const VOCAB_SIZE = SYMBOLS.length;

export const PAD = 0;
export const BOS = 1;
export const EOS = 2;

const ID = new Map<string, number>(SYMBOLS.map((c, i) => [c, i]));

/** The token id of one vocabulary character. */
export function tokenId(char: string): number {
  const id = ID.get(char);
  if (id === undefined) throw new VocabularyError(char, 0, char);
  return id;
}

/** Text → token ids, one per character; throws VocabularyError naming the first bad character. */
export function encode(text: string): Uint32Array {
  const out = new Uint32Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const id = ID.get(text[i]);
    if (id === undefined) throw new VocabularyError(codePointAt(text, i), i, text);
    out[i] = id;
  }
  return out;
}

/** Token ids → text, specials as their stand-in characters. */
export function decode(ids: ArrayLike<number>): string {
  let s = '';
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (!(Number.isInteger(id) && id >= 0 && id < VOCAB_SIZE)) {
      throw new TaskError(
        `token id ${id} at position ${i} is outside the vocabulary (0..${VOCAB_SIZE - 1})`,
      );
    }
    s += SYMBOLS[id];
  }
  return s;
}

// Name a whole astral character rather than half of its surrogate pair.
function codePointAt(text: string, i: number): string {
  return String.fromCodePoint(text.codePointAt(i) ?? 0);
}
