import {
  createArithmetic,
  createListlang,
  type FamilyId,
  type TaskFamily,
} from '../tasks/index.ts';

/**
 * The task each family trains on here. Arithmetic is addition, the story of DESIGN.md §1
 * (3-digit → 4-digit); the family also knows subtraction and multiplication by a digit.
 */
export function trainingFamily(id: FamilyId): TaskFamily {
  return id === 'arithmetic' ? createArithmetic({ ops: ['+'] }) : createListlang();
}
