import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TaskError, VocabularyError } from './errors.ts';
import { BOS, EOS, PAD, VOCAB, VOCAB_SIZE, decode, encode, tokenId } from './tokenizer.ts';

describe('tokenizer', () => {
  it('has one small vocabulary with distinct single characters and named specials', () => {
    expect(VOCAB_SIZE).toBe(VOCAB.length);
    expect(VOCAB_SIZE).toBeGreaterThanOrEqual(40);
    expect(VOCAB_SIZE).toBeLessThanOrEqual(64);
    expect(new Set(VOCAB).size).toBe(VOCAB_SIZE);
    expect(VOCAB.every((c) => c.length === 1)).toBe(true);
    expect([PAD, BOS, EOS]).toEqual([0, 1, 2]);
    expect(decode([BOS, EOS, PAD])).toBe('^.~');
    expect(tokenId('=')).toBe(VOCAB.indexOf('='));
  });

  it('round-trips any text over the vocabulary, one token per character', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...VOCAB), { maxLength: 80 }), (chars) => {
        const text = chars.join('');
        const ids = encode(text);
        expect(ids.length).toBe(text.length);
        expect(decode(ids)).toBe(text);
      }),
    );
  });

  it('names the character and its position when text is outside the vocabulary', () => {
    expect(() => encode('12+3 4')).toThrow(VocabularyError);
    expect(() => encode('12+3 4')).toThrow(/" " \(U\+0020\) at position 4 of "12\+3 4"/);
    expect(() => encode('rsX')).toThrow(/"X" \(U\+0058\) at position 2/);
    expect(() => encode('a😀')).toThrow(/"😀" \(U\+1F600\) at position 1/);
    const error = (() => {
      try {
        encode('ab?');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toMatchObject({ char: '?', position: 2 });
    expect(() => tokenId('A')).toThrow(VocabularyError);
  });

  it('rejects token ids outside the vocabulary', () => {
    expect(() => decode([1, VOCAB_SIZE])).toThrow(TaskError);
    expect(() => decode([1, VOCAB_SIZE])).toThrow(/token id \d+ at position 1/);
    expect(() => decode([-1])).toThrow(/outside the vocabulary/);
  });
});
