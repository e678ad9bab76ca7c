import { describe, expect, it } from 'vitest';
import { checkedImport, type ImportTarget } from './checkpoint-import.ts';
import { CUSTOM_TASK } from './experiment-config.ts';
import type { BaseMeasure } from './custom-task/base-report.ts';

const bytes = new Uint8Array([1, 2, 3]);
type Checked = Parameters<typeof checkedImport>[2];
const arithmetic: Checked = {
  task: 'arithmetic',
  taskModule: null,
  parameters: 105_000,
  options: '',
  report: null,
};
const measured = { literacy: [] } as unknown as BaseMeasure;
const reverse: Checked = {
  task: CUSTOM_TASK,
  taskModule: 'reverse',
  parameters: 105_000,
  options: '',
  report: measured,
};
const onArithmetic: ImportTarget = { task: 'arithmetic', moduleId: null };
const onReverse: ImportTarget = { task: CUSTOM_TASK, moduleId: 'reverse' };

describe('a checked checkpoint made into the base', () => {
  it("takes a shipped family's base anywhere and switches the page to its family", () => {
    const r = checkedImport('a.safetensors', bytes, arithmetic, onReverse);
    expect(r).toMatchObject({ ok: true, task: 'arithmetic', level: 'info' });
    expect(r.notice).toBe(
      'Imported "a.safetensors" (105,000 parameters, arithmetic): both lanes restarted from it.',
    );
  });

  it("takes a task module's base only on the custom task with a checked task", () => {
    for (const target of [onArithmetic, { task: CUSTOM_TASK, moduleId: null }]) {
      const r = checkedImport('r.safetensors', bytes, reverse, target);
      expect(r).toEqual({
        ok: false,
        notice:
          'Import of "r.safetensors" failed: it was warmed up for the task "reverse": pick Custom task in the task menu, check that task, then import it. Nothing was changed.',
      });
    }
    const r = checkedImport('r.safetensors', bytes, reverse, onReverse);
    expect(r).toMatchObject({ ok: true, task: null, level: 'info', report: measured });
    expect(r.notice).toContain('warmed up for the task "reverse"');
  });

  it('warns, and still takes it, where the base was warmed up for another module', () => {
    const r = checkedImport('r.safetensors', bytes, reverse, {
      task: CUSTOM_TASK,
      moduleId: 'sort',
    });
    // Its literacy table and gate are another module's: none is brought.
    expect(r).toMatchObject({ ok: true, level: 'warning', report: null });
    expect(r.notice).toMatch(
      /restarted from it\. The checked task is "sort", not "reverse": the base may not read its problems\.$/,
    );
    // A page base from before the module was recorded cannot be told apart: no warning.
    const older = { ...reverse, taskModule: null };
    expect(checkedImport('o.safetensors', bytes, older, onReverse)).toMatchObject({
      ok: true,
      level: 'info',
    });
  });
});
