// The custom task as the page's contexts know it. Its code runs only in workers; the page, and
// the mentor workers, hold a family made of its account alone (describedEntry), registered under
// one id whatever the module calls itself, so settings, sliders and labels read it like any other.
import { CUSTOM_TASK_ID, describedEntry, type TaskInfo } from '../../tasks/custom/task-info.ts';
import { TASK_CHARS } from '../../tasks/custom/task-module.ts';
import type { FamilyEntry } from '../../tasks/family-entry.ts';
import { registerFamily } from '../../tasks/registry.ts';

export { CUSTOM_TASK_ID };

/** Until a task is checked: a stand-in with its levels, so a link with task=custom still reads. */
export const PLACEHOLDER_TASK: TaskInfo = {
  moduleId: 'custom',
  label: 'Custom task',
  levels: { min: 1, max: 9 },
  levelNames: Array.from({ length: 9 }, (_, i) => `level ${i + 1} (no task checked yet)`),
  answerUnit: ['character', 'characters'],
  collapse: { easy: 1, hard: 2 },
  checked: { answerChars: TASK_CHARS, maxTokens: Array<number>(9).fill(128) },
};

/** Makes `info` (or the stand-in) the custom task of this context. */
export function registerCustomTask(info: TaskInfo | null): FamilyEntry {
  const shown = info ? { ...info, label: `Custom task: ${info.label}` } : PLACEHOLDER_TASK;
  const entry = describedEntry(shown, CUSTOM_TASK_ID) as unknown as FamilyEntry;
  registerFamily(entry);
  return entry;
}
