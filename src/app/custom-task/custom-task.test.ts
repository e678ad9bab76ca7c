import { describe, expect, it } from 'vitest';
import type { TaskInfo } from '../../tasks/custom/task-info.ts';
import { CustomTask } from './custom-task.svelte.ts';

const REFUSAL =
  'task "shout" is refused:\n  level 1, problem "abc": its answer holds "A" at position 0, not in the vocabulary\n  level 2, problem "abcd": its answer holds "A" at position 0, not in the vocabulary';

describe("the custom task's status beside Check", () => {
  it('says a check refused the code, and why, not that it was never checked', () => {
    const task = new CustomTask();
    expect(task.status).toMatch(/^Not checked yet/);
    task.refuse(task.draft, REFUSAL);
    expect(task.status).toBe(
      'Refused: level 1, problem "abc": its answer holds "A" at position 0, not in the vocabulary. Fix the code and Check again.',
    );
    expect(task.fault).toBe(REFUSAL);
    // Edited since, the code is one no check has seen.
    task.draft = `${task.draft}\n`;
    expect(task.status).toMatch(/^Not checked yet/);
  });

  it('says the lanes keep the task checked before, and a load fault in one line', () => {
    const task = new CustomTask();
    const info = {
      label: 'Reverse a word',
      levels: { min: 2, max: 9 },
      collapse: { easy: 4, hard: 6 },
    } as TaskInfo;
    task.accept(task.draft, info);
    expect(task.status).toBe('Checked: Reverse a word, levels 2–9, the jump 4 → 6.');
    task.draft = 'export default {';
    task.refuse(
      task.draft,
      "the task's code does not load: Unexpected end of input (near line 1, column 17)",
    );
    expect(task.status).toBe(
      "Refused: the task's code does not load: Unexpected end of input (near line 1, column 17). Fix the code and Check again; the lanes keep the task checked before.",
    );
    task.refuse(
      task.draft,
      'its check did not end within 20 s (at level 4): a sample or verify that never returns?',
    );
    expect(task.status).toMatch(/never returns\? Fix the code and Check again;/);
    task.accept(task.draft, info);
    expect(task.refused).toBeNull();
    expect(task.status).toMatch(/^Checked/);
  });
});
