/** llm.c-style closeness: |got − want| ≤ atol + rtol·|want| everywhere. */
export interface Tolerance {
  atol: number;
  rtol: number;
}

export interface Comparison {
  /** Largest |got − want|. */
  maxError: number;
  /** Largest |got − want| / (atol + rtol·|want|); ≤ 1 passes. */
  worst: number;
  /** Index of the worst element, for messages. */
  at: number;
  pass: boolean;
}

export function compare(
  got: ArrayLike<number>,
  want: ArrayLike<number>,
  tol: Tolerance,
): Comparison {
  if (got.length !== want.length) {
    return { maxError: Infinity, worst: Infinity, at: -1, pass: false };
  }
  let maxError = 0;
  let worst = 0;
  let at = -1;
  for (let i = 0; i < got.length; i++) {
    const err = Math.abs(got[i] - want[i]);
    const ratio = Number.isNaN(err) ? Infinity : err / (tol.atol + tol.rtol * Math.abs(want[i]));
    if (err > maxError || Number.isNaN(err)) maxError = Number.isNaN(err) ? Infinity : err;
    if (ratio > worst) {
      worst = ratio;
      at = i;
    }
  }
  return { maxError, worst, at, pass: worst <= 1 };
}
