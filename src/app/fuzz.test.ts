// Property-based fuzzing of every reader of outside input: URL queries, checkpoint files, CSV
// cells and saved-run records. Each property runs on at least 1,000 generated inputs.
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CheckpointError, parseSafetensors } from '../model/safetensors.ts';
import { csvCell } from './export.ts';
import { PARAMS } from './experiment-params.ts';
import { readRun, SAVED_RUN_VERSION } from './run-store.ts';
import { decodeUrl, encodeUrl, ExperimentSchema } from './url-state.ts';

const RUNS = { numRuns: 1000 };
const NAMES = PARAMS.flatMap((p) => [p.url, ...(p.aliases ?? [])]);

describe('fuzzing the readers of outside input', () => {
  it('the URL decoder never throws, and always yields a valid experiment that reads back the same', () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer().map(String),
      fc.double().map(String),
      fc.constantFrom(
        'none,mentor',
        '0:3,100:4',
        'arithmetic',
        'listlang',
        'webgpu',
        '1e309',
        '-0',
      ),
    );
    const query = fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...NAMES), fc.string()), value), { maxLength: 12 })
      .map(
        (pairs) =>
          `?${pairs.map(([k, x]) => `${encodeURIComponent(k)}=${encodeURIComponent(x)}`).join('&')}`,
      );
    fc.assert(
      fc.property(fc.oneof(query, fc.string()), (search) => {
        const d = decodeUrl(search);
        expect(v.safeParse(ExperimentSchema, d.config).success).toBe(true);
        const again = decodeUrl(encodeUrl(d.config));
        expect(again.notices).toEqual([]);
        expect(again.config).toEqual(d.config);
      }),
      RUNS,
    );
  });

  it('the safetensors reader refuses every crafted header with a CheckpointError, or reads what it says', () => {
    const entry = fc.record(
      {
        dtype: fc.oneof(fc.constant('F32'), fc.string()),
        shape: fc.oneof(fc.array(fc.integer({ min: -2, max: 6 }), { maxLength: 3 }), fc.anything()),
        data_offsets: fc.oneof(
          fc.tuple(fc.integer({ min: -4, max: 200 }), fc.integer({ min: -4, max: 200 })),
          fc.anything(),
        ),
      },
      { requiredKeys: [] },
    );
    const header = fc.dictionary(
      fc.oneof(fc.constantFrom('a', 'b', '__metadata__'), fc.string({ maxLength: 4 })),
      fc.oneof(
        entry,
        fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 })),
        fc.anything(),
      ),
      { maxKeys: 4 },
    );
    const file = fc
      .tuple(header, fc.integer({ min: 0, max: 160 }), fc.integer({ min: -8, max: 8 }))
      .map(([h, dataBytes, lengthSkew]) => {
        const json = new TextEncoder().encode(JSON.stringify(h));
        const bytes = new Uint8Array(8 + json.length + dataBytes);
        new DataView(bytes.buffer).setBigUint64(
          0,
          BigInt(Math.max(0, json.length + lengthSkew)),
          true,
        );
        bytes.set(json, 8);
        return bytes;
      });
    fc.assert(
      fc.property(fc.oneof(file, fc.uint8Array({ maxLength: 64 })), (bytes) => {
        let parsed;
        try {
          parsed = parseSafetensors(bytes);
        } catch (e) {
          expect(e).toBeInstanceOf(CheckpointError);
          return;
        }
        for (const t of parsed.tensors)
          expect(t.data.length).toBe(t.shape.reduce((a, b) => a * b, 1));
        for (const x of Object.values(parsed.metadata)) expect(typeof x).toBe('string');
      }),
      RUNS,
    );
  });

  it('a CSV cell reads back as the text it holds, and never starts a formula', () => {
    /** RFC 4180: a quoted cell unquoted, or the cell as it is. */
    const readCell = (cell: string) =>
      cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' })), (text) => {
        const cell = csvCell(text);
        const formula = /^[=+\-@\t\r]/.test(text);
        expect(readCell(cell)).toBe(formula ? `'${text}` : text);
        // Unquoted cells hold nothing that would end or split them.
        if (!cell.startsWith('"')) expect(cell).not.toMatch(/[",\r\n]/);
        expect(cell).not.toMatch(/^[=+\-@]/);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(typeof csvCell(value)).toBe('string');
      }),
      RUNS,
    );
  });

  it('the saved-run reader takes any records without throwing, and what it keeps is well formed', () => {
    const meta = fc.oneof(
      fc.anything(),
      fc.record({
        version: fc.oneof(
          fc.constantFrom(1, SAVED_RUN_VERSION, SAVED_RUN_VERSION + 1),
          fc.anything(),
        ),
        query: fc.oneof(fc.string(), fc.anything()),
        savedAt: fc.oneof(fc.double(), fc.anything()),
        base: fc.oneof(fc.string(), fc.anything()),
      }),
    );
    const row = fc.oneof(
      fc.anything(),
      fc.record({ lane: fc.integer({ min: -2, max: 3 }), step: fc.nat(), metrics: fc.anything() }),
      fc.record({
        lane: fc.integer({ min: -2, max: 3 }),
        step: fc.nat(),
        bytes: fc.oneof(fc.uint8Array({ maxLength: 8 }), fc.anything()),
        state: fc.anything(),
      }),
    );
    fc.assert(
      fc.property(
        meta,
        fc.array(row, { maxLength: 6 }),
        fc.array(row, { maxLength: 4 }),
        (m, steps, checkpoints) => {
          const r = readRun({ meta: m, steps, checkpoints });
          expect(['none', 'run', 'unreadable']).toContain(r.kind);
          if (r.kind === 'unreadable') expect(r.reason.length).toBeGreaterThan(10);
          if (r.kind !== 'run') return;
          expect(r.run.meta.version).toBe(SAVED_RUN_VERSION);
          expect(r.dropped).toBe(
            steps.length +
              checkpoints.length -
              r.run.lanes.flat().length -
              r.run.checkpoints.length,
          );
          for (const lane of r.run.lanes)
            for (const s of lane) expect(Number.isInteger(s.step) && s.step >= 0).toBe(true);
          for (const c of r.run.checkpoints) expect(c.bytes).toBeInstanceOf(Uint8Array);
        },
      ),
      RUNS,
    );
  });
});
