// The words for help, one thing each:
// - `Help` (src/rl/intervention.ts): what an intervention asks for a failed group — a retry, a
//   demonstration or a refinement, the channel and what it carries;
// - `Cue` (here): what one prompt carries of it when the policy answers — a hint in the hint slot
//   and/or a scaffold forced at the answer's start (`promptOf` turns a Help into its cue; a
//   ScoredGroup's `hint` and `scaffold` are the cue its answers were written under);
// - a re-prompt (`Reprompt`): a Help for one group, with its diagnosis, note and author.
import type { PromptOptions } from '../../tasks/index.ts';

/** What a prompt carries of the help: a hint in the hint slot and/or a forced scaffold. */
export type Cue = PromptOptions;
