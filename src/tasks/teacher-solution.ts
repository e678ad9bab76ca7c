import { getFamily } from './registry.ts';
import type { Problem, TeacherFormat } from './types.ts';

export const TEACHER_FORMATS: readonly TeacherFormat[] = ['own', 'other'];

/**
 * A right answer written out by the family's teacher in `format` (TaskFamily.teacherSolution); the
 * reference itself where the reference is the whole answer.
 */
export function teacherSolution(problem: Problem, format: TeacherFormat): string {
  return getFamily(problem.family).teacherSolution?.(problem, format) ?? problem.answer;
}

/** A right answer as the policy writes it: the teacher's solution in the policy's own notation. */
export function ownSolution(problem: Problem): string {
  return teacherSolution(problem, 'own');
}

/** Whether the family writes working the reference does not hold, so showing it needs a teacher. */
export function hasTeacher(problem: Problem): boolean {
  return getFamily(problem.family).teacherSolution !== undefined;
}
