import { describe, expect, it } from 'vitest';
import { summariseGate } from '../../rl/bases/gate-chance.ts';
import type { LiteracyRow } from '../../rl/bases/literacy.ts';
import { serializeSafetensors } from '../../model/safetensors.ts';
import {
  BASE_REPORT_KEY,
  baseReportIn,
  baseReportOf,
  baseReportText,
  type BaseMeasure,
} from './base-report.ts';

const literacy: LiteracyRow[] = [
  {
    level: 6,
    cells: [
      { help: 'none', accuracy: 0, n: 50 },
      { help: 'prefix:3', accuracy: null, n: 0 },
    ],
    lengths: { shorter: 0.5, longer: 0.1 },
  },
];

const measure = (chance: number): BaseMeasure => ({
  literacy,
  gate: summariseGate(6, [{ answer: 'abc', chance }], 112),
});

describe("a base's literacy table and gate in its file", () => {
  it('come back as they were written, the wait included, never as well as where none', () => {
    for (const m of [measure(1e-9), measure(0)]) {
      expect(baseReportOf({ [BASE_REPORT_KEY]: baseReportText(m) })).toEqual(m);
    }
    expect(measure(0).gate.expectedWaitSteps).toBe(Infinity);
  });

  it('are none where the file carries none, or none that reads', () => {
    expect(baseReportOf({})).toBeNull();
    expect(baseReportOf({ [BASE_REPORT_KEY]: '{' })).toBeNull();
    expect(baseReportOf({ [BASE_REPORT_KEY]: JSON.stringify({ literacy: 'x' }) })).toBeNull();
    const above = JSON.parse(baseReportText(measure(1e-9))) as { gate: { chance: number } };
    above.gate.chance = 2;
    expect(baseReportOf({ [BASE_REPORT_KEY]: JSON.stringify(above) })).toBeNull();
  });
});

describe("a saved run's base, read again on the page", () => {
  const file = (meta: Record<string, string>) => serializeSafetensors([], meta);
  const report = baseReportText(measure(1e-9));

  it("brings back the report its file carries for the run's task module", () => {
    const page = file({ task: 'custom', task_module: 'reverse', [BASE_REPORT_KEY]: report });
    expect(baseReportIn(page, 'reverse')).toEqual(measure(1e-9));
  });

  it("brings none of another module's, none where it carries none, and none from a broken file", () => {
    const other = file({ task: 'custom', task_module: 'sort', [BASE_REPORT_KEY]: report });
    expect(baseReportIn(other, 'reverse')).toBeNull();
    expect(baseReportIn(file({ task: 'reverse' }), 'reverse')).toBeNull();
    expect(baseReportIn(Uint8Array.of(1, 2, 3), 'reverse')).toBeNull();
  });
});
