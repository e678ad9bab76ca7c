import type { Problem } from '../tasks/index.ts';
import type { Attempt } from './sampler.ts';
import type { Cue } from './reprompt/cue.ts';
import type { Reprompt } from './intervention.ts';

/** A group as it goes into the update: its prompt, the cue it carried, its G attempts. */
export interface TrainGroup {
  problem: Problem;
  cue: Cue;
  attempts: Attempt[];
  /** The re-prompt that produced this group, or null for a group as first sampled. */
  reprompt: Reprompt | null;
}
