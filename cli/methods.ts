import type { GrpoConfig } from '../src/rl/config.ts';
import { noIntervention, type Intervention } from '../src/rl/intervention.ts';
import type { FamilyId } from '../src/tasks/index.ts';

export const METHODS = ['none'] as const;

/** The intervention behind a --method name. */
export function makeIntervention(
  method: string,
  _task: FamilyId,
  _config: GrpoConfig,
): Intervention {
  switch (method) {
    case 'none':
      return noIntervention;
    default:
      throw new Error(`unknown method ${method}`);
  }
}
