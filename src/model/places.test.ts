import { describe, expect, it } from 'vitest';
import { encode } from '../tasks/index.ts';
import { packBatch } from './batch.ts';
import { placeOf, placesOfRows } from './places.ts';

const PLACES = { firstDigit: encode('0')[0], maxPlace: 3 };

describe('digit places', () => {
  it('numbers each run of digits from 1 and gives every other token 0', () => {
    const tokens = encode('^||274+9831=');
    expect(Array.from(placesOfRows(tokens, tokens.length, PLACES))).toEqual([
      0, 0, 0, 1, 2, 3, 0, 1, 2, 3, 3, 0,
    ]);
  });

  it('restarts on every row of a left-padded batch', () => {
    const batch = packBatch([encode('^12=3'), encode('^7=')], 0);
    expect(Array.from(placesOfRows(batch.tokens, batch.T, PLACES))).toEqual([
      0, 1, 2, 0, 1, 0, 0, 0, 1, 0,
    ]);
  });

  it('continues a run one token at a time as generation does', () => {
    const text = encode('^||1234=56.');
    let place = 0;
    const stepwise = Array.from(text, (t) => (place = placeOf(place, t, PLACES)));
    expect(stepwise).toEqual(Array.from(placesOfRows(text, text.length, PLACES)));
  });
});
