import { describe, expect, it } from 'vitest';
import { summariseGate } from '../../rl/bases/gate-chance.ts';
import type { TaskInfo } from '../../tasks/custom/task-info.ts';
import type { BaseMeasure } from './base-report.ts';
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

describe('the verdict beside the base', () => {
  const warmed = {
    bytes: new Uint8Array(1),
    label: 'a base warmed up for reverse',
    imported: true,
  };
  const imported = { bytes: new Uint8Array(2), label: 'imported r.safetensors', imported: true };
  const measure = (none: number): BaseMeasure => ({
    literacy: [
      {
        level: 6,
        cells: [
          { help: 'none', accuracy: none, n: 50 },
          { help: 'length:1', accuracy: 0.9, n: 50 },
        ],
        lengths: { shorter: 0, longer: 0 },
      },
    ],
    gate: summariseGate(6, [{ answer: 'abc', chance: none > 0 ? 0.3 : 1e-12 }], 112),
  });

  it("is an imported base's own, never the warm-up's before it", () => {
    const task = new CustomTask();
    task.useBase(warmed, measure(0));
    expect(task.report?.verdict.kind).toBe('collapse');
    task.useBase(imported, measure(0.9));
    expect(task.base).toBe(imported);
    expect(task.report?.verdict.kind).toBe('no-collapse');
    expect(task.unmeasured).toBeNull();
  });

  it('is none, saying why, where the import carries none', () => {
    const task = new CustomTask();
    task.useBase(warmed, measure(0));
    task.useBase(imported, null);
    expect(task.report).toBeNull();
    expect(task.unmeasured).toMatch(
      /^No verdict for this base: its file carries no literacy table/,
    );
  });
});
