import { PrefixHints } from '../src/mentor/baselines/prefix.ts';
import { StaticHints } from '../src/mentor/baselines/static.ts';
import { MentorIntervention } from '../src/mentor/mentor.ts';
import type { GrpoConfig } from '../src/rl/config.ts';
import { noIntervention, type Intervention } from '../src/rl/intervention.ts';

export const METHODS = ['none', 'static', 'prefix', 'mentor'] as const;

/** The intervention behind a --method name, in-process (the Node tools need no worker). */
export function makeIntervention(method: string, config: GrpoConfig): Intervention {
  switch (method) {
    case 'none':
      return noIntervention;
    case 'static':
      return new StaticHints(config.seed);
    case 'prefix':
      return new PrefixHints();
    case 'mentor':
      return new MentorIntervention();
    default:
      throw new Error(`unknown method ${method}`);
  }
}
