// What the lane says of its custom mentor each time a mentor worker loads the person's code.
import type { MentorLoaded } from '../../interventions/host/worker-api.ts';

/** The person's text, kept short on the page. */
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

export function customMentorNotice(loaded: MentorLoaded): string {
  if (!loaded.ok)
    return `The custom mentor's code ${loaded.fault}: ${clip(loaded.message, 300)}. The lane trains as plain GRPO until code that loads is applied.`;
  if (loaded.name === null)
    return 'The custom mentor has no code to run yet (press Apply, or Run this code, in its editor); until then the lane trains as plain GRPO.';
  return `The custom mentor "${clip(loaded.name, 60)}" is loaded; it helps from the next step.`;
}
