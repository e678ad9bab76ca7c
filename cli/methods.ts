import { HOSTED_METHODS, hostedIntervention } from '../src/mentor/api.ts';
import type { Channel } from '../src/mentor/instructor.ts';
import { DEFAULT_MENTOR } from '../src/mentor/mentor.ts';
import type { GrpoConfig } from '../src/rl/config.ts';
import { noIntervention, type Intervention } from '../src/rl/intervention.ts';

export const METHODS = ['none', ...HOSTED_METHODS] as const;

/** The intervention behind a --method name, in-process (the Node tools need no worker). */
export function makeIntervention(
  method: string,
  config: GrpoConfig,
  channel?: Channel,
): Intervention {
  if (method === 'none') return noIntervention;
  if (!(HOSTED_METHODS as readonly string[]).includes(method))
    throw new Error(`unknown method ${method}`);
  const mentor = channel
    ? { ...DEFAULT_MENTOR, instructor: { ...DEFAULT_MENTOR.instructor, channel } }
    : DEFAULT_MENTOR;
  return hostedIntervention(method as (typeof HOSTED_METHODS)[number], config.seed, mentor);
}
