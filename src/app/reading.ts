// How a person reads a family's prompts and answers where the family writes them otherwise than
// people do (arithmetic: units digit first): said in the reading guide and in the inspector.
import { HINT_MARK, familyEntry } from '../tasks/index.ts';
import type { PageTask } from './experiment-config.ts';

/** What to know before reading the task's text; null where it reads as written. */
export function notationNote(task: PageTask): string | null {
  return familyEntry(task).reading?.note ?? null;
}

/** `text` the usual way; null where that is how it is written. */
function usual(task: PageTask, text: string): string | null {
  const reading = familyEntry(task).reading;
  const rewritten = reading?.usual(text) ?? text;
  return rewritten === text ? null : rewritten;
}

/** A prompt's problem (what follows its hint slot) the usual way; null where it reads as written. */
export function usualProblem(task: PageTask, prompt: string): string | null {
  return usual(task, prompt.slice(prompt.lastIndexOf(HINT_MARK) + 1));
}

/** An answer the usual way; null where it reads as written. */
export function usualAnswer(task: PageTask, answer: string): string | null {
  return usual(task, answer);
}
