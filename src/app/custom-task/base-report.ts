// A base warmed up in the page carries its literacy table and gate in its file's metadata, so the
// verdict shown beside a base is that base's, wherever it was warmed up: an import brings its own
// or none, never the verdict of the warm-up before. Read back through a schema: the file may come
// from anywhere.
import * as v from 'valibot';
import { safetensorsHeader } from '../../model/safetensors.ts';
import { expectedWait, type GateChance } from '../../rl/bases/gate-chance.ts';
import type { LiteracyRow } from '../../rl/bases/literacy.ts';
import { baseTaskOf, otherModuleWarning } from '../../tasks/custom/base-task.ts';

/** The metadata key of the report. */
export const BASE_REPORT_KEY = 'base_report';

/** What a warm-up measured of its base. */
export interface BaseMeasure {
  literacy: LiteracyRow[];
  gate: GateChance;
}

const share = v.pipe(v.number(), v.minValue(0), v.maxValue(1));
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const MeasureSchema = v.object({
  literacy: v.pipe(
    v.array(
      v.object({
        level: v.pipe(v.number(), v.integer()),
        cells: v.pipe(
          v.array(
            v.object({
              help: v.pipe(v.string(), v.maxLength(40)),
              accuracy: v.nullable(share),
              n: count,
            }),
          ),
          v.maxLength(64),
        ),
        lengths: v.object({ shorter: share, longer: share }),
      }),
    ),
    v.maxLength(40),
  ),
  gate: v.object({
    level: v.pipe(v.number(), v.integer()),
    problems: count,
    chance: share,
    samplesPerStep: v.pipe(count, v.minValue(1)),
    leaders: v.pipe(
      v.array(v.object({ answer: v.pipe(v.string(), v.maxLength(200)), share })),
      v.maxLength(20),
    ),
  }),
});

/** The report as metadata: the wait is left out, as JSON has no Infinity (it follows from the rest). */
export function baseReportText({ literacy, gate }: BaseMeasure): string {
  const { expectedWaitSteps: _wait, ...rest } = gate;
  return JSON.stringify({ literacy, gate: rest });
}

/** The report a checkpoint's metadata carries; null where it carries none, or none that reads. */
export function baseReportOf(metadata: Readonly<Record<string, string>>): BaseMeasure | null {
  const text = metadata[BASE_REPORT_KEY];
  if (text === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const read = v.safeParse(MeasureSchema, parsed);
  if (!read.success) return null;
  const { literacy, gate } = read.output;
  return {
    literacy,
    gate: { ...gate, expectedWaitSteps: expectedWait(gate.chance, gate.samplesPerStep) },
  };
}

/**
 * The report a base's file carries for the task module `moduleId` (a saved run's base, read again
 * on the page: the header only); null where it carries none, or one of another module's.
 */
export function baseReportIn(bytes: Uint8Array, moduleId: string): BaseMeasure | null {
  let metadata: Record<string, string>;
  try {
    ({ metadata } = safetensorsHeader(bytes));
  } catch {
    return null;
  }
  const trained = baseTaskOf(metadata);
  if (!trained.ok || otherModuleWarning(trained.taskModule, moduleId) !== null) return null;
  return baseReportOf(metadata);
}
