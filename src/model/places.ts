import { nextPlace } from '../engine/kernels/sample.ts';
import type { PlaceConfig } from './config.ts';

/**
 * Abacus-style digit places (McLeish et al., 2024): the k-th digit of a run of consecutive digit
 * tokens has place k (capped at maxPlace), every other token place 0. With numbers written units
 * digit first, the digits of one column share a place in both operands and the answer, so the
 * model can find a column by content instead of by its distance, which changes with the length.
 */
export function placeOf(previousPlace: number, token: number, p: PlaceConfig): number {
  return nextPlace(previousPlace, token, p.firstDigit, p.maxPlace);
}

/** Places of B left-padded rows of T tokens (row b·T + t). */
export function placesOfRows(tokens: Uint32Array, T: number, p: PlaceConfig): Uint32Array {
  const out = new Uint32Array(tokens.length);
  for (let row = 0; row < tokens.length; row += T) {
    let prev = 0;
    for (let t = row; t < row + T; t++) {
      prev = placeOf(prev, tokens[t], p);
      out[t] = prev;
    }
  }
  return out;
}
