import { describe, expect, it } from 'vitest';
import { runFaults, runFaultsMarkdown } from './run-faults.ts';

describe("a table's runs that reported faults", () => {
  it('counts, per method, the steps from the jump on whose events report one', () => {
    const failed = 'static plan failed at step 10: worked has no length hints; going on without it';
    const runs = [
      {
        method: 'static',
        steps: [
          { step: 9, events: ['before the jump: not counted'] },
          { step: 10, events: [failed] },
          { step: 11, events: [failed, 'and another'] },
        ],
      },
      { method: 'static', steps: [{ step: 10, events: [] }, { step: 11 }] },
      { method: 'mentor', steps: [{ step: 10, events: [] }] },
    ];
    const faults = runFaults(runs, 10);
    expect(faults).toEqual([
      { method: 'static', runs: 1, of: 2, steps: 2, stepsOf: 4, first: failed },
    ]);
    expect(runFaultsMarkdown(faults)).toContain(
      `- \`static\`: 2 of 4 steps after the jump (1 of 2 runs); the first: "${failed}"`,
    );
    expect(runFaultsMarkdown(runFaults(runs.slice(2), 10))).toBeNull();
  });
});
