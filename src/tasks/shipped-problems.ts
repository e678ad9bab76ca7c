import type { ArithmeticProblem } from './arithmetic/types.ts';
import type { ListlangProblem } from './listlang/types.ts';
import type { Problem } from './types.ts';
import type { WorkedProblem } from './worked/types.ts';

// A loaded task's id is any string to the type checker, so comparing `family` with a shipped id
// does not narrow a Problem by itself; these do.

export function isArithmeticProblem(p: Problem): p is ArithmeticProblem {
  return p.family === 'arithmetic';
}

export function isListlangProblem(p: Problem): p is ListlangProblem {
  return p.family === 'listlang';
}

export function isWorkedProblem(p: Problem): p is WorkedProblem {
  return p.family === 'worked';
}
