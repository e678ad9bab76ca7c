import { describe, expect, it } from 'vitest';
import { writtenAttempt } from '../sampler.ts';
import { listlang, listlangProblem } from '../../tasks/listlang/family.ts';
import { answerLengths, literacyMarkdown } from './literacy.ts';

const INPUTS = ['47623', '34958', '55304', '12345', '90817'];

describe('literacy: answers by length', () => {
  it('counts answers with too few and too many ops against each reference', () => {
    const one = listlangProblem('i', INPUTS);
    const two = listlangProblem('ir', INPUTS);
    const attempts = [
      writtenAttempt(listlang, one, 'i'), // right
      writtenAttempt(listlang, one, 'is'), // a second op where one fits
      writtenAttempt(listlang, one, 'ir'),
      writtenAttempt(listlang, two, 'i'), // stopped after one
      writtenAttempt(listlang, two, 'ri'), // the right length, wrong
    ];
    expect(answerLengths(attempts)).toEqual({ shorter: 1 / 5, longer: 2 / 5 });
    expect(answerLengths([])).toEqual({ shorter: 0, longer: 0 });
  });

  it('puts them in the last two columns of the table', () => {
    const md = literacyMarkdown([
      {
        level: 1,
        cells: [
          { help: 'none', accuracy: 0.62, n: 200 },
          { help: 'prefix:1', accuracy: null, n: 0 },
        ],
        lengths: { shorter: 0, longer: 0.52 },
      },
    ]);
    expect(md.split('\n')).toEqual([
      '| level | none | prefix:1 | none: shorter | none: longer |',
      '|---|---:|---:|---:|---:|',
      '| 1 | 62.0 | – | 0.0 | 52.0 |',
    ]);
  });
});
