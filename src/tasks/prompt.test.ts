import { describe, expect, it } from 'vitest';
import { arithmeticProblem } from './arithmetic/family.ts';
import { TaskError } from './errors.ts';
import { listlangProblem } from './listlang/family.ts';
import { decodeAnswer, encodePrompt, encodeSequence, promptText, scaffoldText } from './prompt.ts';
import { EOS, decode, encode } from './tokenizer.ts';

const add = arithmeticProblem('+', '472', '389');
const prog = listlangProblem('isl', ['59898', '31909', '10184', '31181', '87032']);

describe('prompt format', () => {
  it('puts problem, hint slot and answer marker in one compact line', () => {
    expect(promptText(add)).toBe('472+389|=');
    expect(promptText(add, { kind: 'carries', carries: '110' })).toBe('472+389|c110=');
    expect(promptText(prog, { kind: 'uses', ops: 's' })).toBe(
      '59898>06990,31909>01240,10184>22591|+s=',
    );
  });

  it('encodes a prompt with begin token, and a scaffold as the start of the answer', () => {
    const plain = encodePrompt(add);
    expect(decode(plain.tokens)).toBe('^472+389|=');
    expect(plain).toMatchObject({ answerStart: 10, sampleStart: 10 });
    const scaffolded = encodePrompt(add, {
      hint: { kind: 'length', length: 3 },
      scaffold: scaffoldText(add, 2),
    });
    expect(decode(scaffolded.tokens)).toBe('^472+389|#3=16');
    expect(scaffolded).toMatchObject({ answerStart: 12, sampleStart: 14 });
  });

  it('encodes a training sequence ending in the end token, loss after the scaffold', () => {
    const seq = encodeSequence(add, add.answer, { hint: { kind: 'prefix', text: '1' } });
    expect(decode(seq.tokens)).toBe('^472+389|p1=168.');
    expect(seq).toMatchObject({ answerStart: 12, lossStart: 12 });
    expect(seq.tokens[seq.tokens.length - 1]).toBe(EOS);
    const scaffolded = encodeSequence(add, add.answer, { scaffold: '16' });
    expect(scaffolded).toMatchObject({ answerStart: 10, lossStart: 12 });
    expect(() => encodeSequence(add, '168', { scaffold: '9' })).toThrow(TaskError);
  });

  it('reads the answer back up to the end token', () => {
    const { tokens, answerStart } = encodeSequence(add, '168');
    expect(decodeAnswer(tokens, answerStart)).toEqual({ text: '168', ended: true });
    expect(decodeAnswer(encode('^472+389|=16'), 10)).toEqual({ text: '16', ended: false });
    expect(decodeAnswer([...encode('^1+2|=3'), EOS, ...encode('99')], 6)).toEqual({
      text: '3',
      ended: true,
    });
  });

  it('validates scaffold lengths', () => {
    expect(scaffoldText(add, 0)).toBe('');
    expect(scaffoldText(add, 3)).toBe('168');
    expect(() => scaffoldText(add, 4)).toThrow(/the answer has 3/);
    expect(() => scaffoldText(add, -1)).toThrow(TaskError);
  });
});
