import type { Problem } from '../tasks/index.ts';
import type { Attempt, PromptHelp } from './sampler.ts';
import type { Reprompt } from './intervention.ts';

/** A group as it goes into the update: its prompt, the help it carried, its G attempts. */
export interface TrainGroup {
  problem: Problem;
  help: PromptHelp;
  attempts: Attempt[];
  /** The re-prompt that produced this group, or null for a group as first sampled. */
  reprompt: Reprompt | null;
}
