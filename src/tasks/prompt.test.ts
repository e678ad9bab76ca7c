import { describe, expect, it } from 'vitest';
import { arithmeticProblem } from './arithmetic/family.ts';
import { TaskError } from './errors.ts';
import { listlangProblem } from './listlang/family.ts';
import { decodeAnswer, encodePrompt, encodeSequence, promptText, scaffoldText } from './prompt.ts';
import { EOS, decode, encode } from './tokenizer.ts';

const add = arithmeticProblem('+', '472', '389');
const prog = listlangProblem('isl', ['59898', '31909', '10184', '31181', '87032']);

describe('prompt format', () => {
  it('puts hint slot, problem and answer marker in one compact line', () => {
    expect(promptText(add)).toBe('||274+983=');
    expect(promptText(add, { kind: 'carries', carries: '110' })).toBe('|c110|274+983=');
    expect(promptText(prog, { kind: 'uses', ops: 's' })).toBe(
      '|+s|59898>06990,31909>01240,10184>22591=',
    );
  });

  it('encodes a prompt with begin token, and a scaffold as the start of the answer', () => {
    const plain = encodePrompt(add);
    expect(decode(plain.tokens)).toBe('^||274+983=');
    expect(plain).toMatchObject({ answerStart: 11, sampleStart: 11 });
    const scaffolded = encodePrompt(add, {
      hint: { kind: 'length', length: 3 },
      scaffold: scaffoldText(add, 2),
    });
    expect(decode(scaffolded.tokens)).toBe('^|#3|274+983=16');
    expect(scaffolded).toMatchObject({ answerStart: 13, sampleStart: 15 });
  });

  it('encodes a training sequence ending in the end token, loss after the scaffold', () => {
    const seq = encodeSequence(add, add.answer, { hint: { kind: 'prefix', text: '1' } });
    expect(decode(seq.tokens)).toBe('^|p1|274+983=168.');
    expect(seq).toMatchObject({ answerStart: 13, lossStart: 13 });
    expect(seq.tokens[seq.tokens.length - 1]).toBe(EOS);
    const scaffolded = encodeSequence(add, add.answer, { scaffold: '16' });
    expect(scaffolded).toMatchObject({ answerStart: 11, lossStart: 13 });
    expect(() => encodeSequence(add, '168', { scaffold: '9' })).toThrow(TaskError);
  });

  it('reads the answer back up to the end token', () => {
    const { tokens, answerStart } = encodeSequence(add, '168');
    expect(decodeAnswer(tokens, answerStart)).toEqual({ text: '168', ended: true });
    expect(decodeAnswer(encode('^||274+983=16'), 11)).toEqual({ text: '16', ended: false });
    expect(decodeAnswer([...encode('^||1+2=3'), EOS, ...encode('99')], 7)).toEqual({
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
