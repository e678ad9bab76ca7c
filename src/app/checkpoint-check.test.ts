import { describe, expect, it } from 'vitest';
import { modelConfig } from '../model/config.ts';
import { paramSpecs, numel } from '../model/param-spec.ts';
import { serializeSafetensors, type NamedTensor } from '../model/safetensors.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { summariseGate } from '../rl/bases/gate-chance.ts';
import { CHECKPOINT_FORMAT, architectureOptions, checkCheckpoint } from './checkpoint-check.ts';
import { BASE_REPORT_KEY, baseReportText } from './custom-task/base-report.ts';

function checkpoint(
  opts: {
    vocab?: number;
    firstDigit?: number;
    drop?: string;
    extra?: boolean;
    nan?: boolean;
    /** A value for element 5 of the first tensor. */
    value?: number;
    meta?: Record<string, string>;
  } = {},
): Uint8Array {
  const config = {
    ...modelConfig('tiny', VOCAB_SIZE),
    vocabSize: opts.vocab ?? VOCAB_SIZE,
    places: { firstDigit: opts.firstDigit ?? 3, maxPlace: 10 },
  };
  const tensors: NamedTensor[] = paramSpecs(config)
    .filter((s) => s.name !== opts.drop)
    .map((s) => ({
      name: s.name,
      shape: [...s.shape],
      data: new Float32Array(numel(s.shape)).fill(0.01),
    }));
  if (opts.extra) tensors.push({ name: 'evil', shape: [1], data: new Float32Array(1) });
  if (opts.nan) tensors[0].data[3] = NaN;
  if (opts.value !== undefined) tensors[0].data[5] = opts.value;
  return serializeSafetensors(tensors, {
    format: CHECKPOINT_FORMAT,
    config: JSON.stringify(config),
    task: 'arithmetic',
    step: '12',
    ...opts.meta,
  });
}

describe('checkpoint import check', () => {
  it('accepts a good checkpoint and reads its metadata', () => {
    const c = checkCheckpoint(checkpoint());
    expect(c.task).toBe('arithmetic');
    expect(c.step).toBe(12);
    expect(c.options).toBe('digit places 1–10');
    expect(c.parameters).toBeGreaterThan(50_000);
  });

  it('refuses, with a clear message, every kind of bad file', () => {
    const cases: [Uint8Array, RegExp][] = [
      [new Uint8Array([1, 2, 3]), /too short/],
      [new TextEncoder().encode('not a safetensors file at all, sorry'), /header|truncated/],
      [checkpoint({ vocab: VOCAB_SIZE + 3 }), /vocabulary has \d+ tokens/],
      [checkpoint({ firstDigit: 4 }), /digit places start at token 4; .* digits start at 3/],
      [checkpoint({ drop: 'place_emb.weight' }), /place_emb.weight" is missing/],
      [checkpoint({ drop: 'lm_head.weight' }), /lm_head.weight" is missing/],
      [checkpoint({ extra: true }), /"evil" is not part of this model/],
      [checkpoint({ nan: true }), /not finite/],
      [checkpoint({ value: 3e38 }), /element 5 is 3\.00e\+38, beyond any trained weight/],
      [checkpoint({ value: -1001 }), /element 5 is -1\.00e\+3, beyond/],
      [checkpoint({ meta: { format: 'other' } }), /not a mentor-playground/],
      [checkpoint({ meta: { config: '{bad' } }), /config/],
      [checkpoint().slice(0, 5000), /truncated|past the file/],
    ];
    for (const [bytes, message] of cases) expect(() => checkCheckpoint(bytes)).toThrow(message);
    // The limit is far above a trained weight, and exactly at it is still a weight.
    expect(() => checkCheckpoint(checkpoint({ value: -1000 }))).not.toThrow();
  });

  it('names the architecture options beyond the presets', () => {
    const plain = modelConfig('tiny', VOCAB_SIZE);
    expect(architectureOptions(plain)).toBe('');
    expect(architectureOptions({ ...plain, rope: false })).toBe('no RoPE');
    expect(
      architectureOptions({ ...plain, rope: false, places: { firstDigit: 3, maxPlace: 8 } }),
    ).toBe('digit places 1–8, no RoPE');
  });

  it('refuses a task that is neither a shipped family nor a task module, naming the families', () => {
    expect(() => checkCheckpoint(checkpoint({ meta: { task: '<b>chess</b>' } }))).toThrow(
      'metadata "task": "<b>chess</b>" is neither a shipped family (arithmetic, listlang, worked) nor a task module\'s id',
    );
    expect(() =>
      checkCheckpoint(checkpoint({ meta: { task: 'custom', task_module: 'Not An Id' } })),
    ).toThrow('metadata "task_module": "Not An Id" is no task id');
  });

  it("reads a task module's base, from the page or from npm run pretrain, as the custom task's", () => {
    const page = checkCheckpoint(checkpoint({ meta: { task: 'custom', task_module: 'reverse' } }));
    expect(page).toMatchObject({ task: 'custom', taskModule: 'reverse' });
    const cli = checkCheckpoint(checkpoint({ meta: { task: 'reverse' } }));
    expect(cli).toMatchObject({ task: 'custom', taskModule: 'reverse' });
    // 'custom' names the page's task, never a module.
    expect(() =>
      checkCheckpoint(checkpoint({ meta: { task: 'custom', task_module: 'custom' } })),
    ).toThrow('metadata "task_module": "custom" is no task id');
    // A page base from before the module was recorded.
    const older = checkCheckpoint(checkpoint({ meta: { task: 'custom' } }));
    expect(older).toMatchObject({ task: 'custom', taskModule: null });
    expect(checkCheckpoint(checkpoint()).taskModule).toBeNull();
  });

  it('reads the literacy table and gate a warm-up in the page wrote into the file, where it did', () => {
    const gate = summariseGate(6, [{ answer: 'abc', chance: 1e-9 }], 112);
    const report = baseReportText({ literacy: [], gate });
    const page = checkCheckpoint(
      checkpoint({ meta: { task: 'custom', task_module: 'reverse', [BASE_REPORT_KEY]: report } }),
    );
    expect(page.report).toEqual({ literacy: [], gate });
    expect(checkCheckpoint(checkpoint({ meta: { task: 'reverse' } })).report).toBeNull();
  });

  it('ignores a step that is not a count', () => {
    expect(checkCheckpoint(checkpoint({ meta: { step: 'x' } }))).toMatchObject({ step: null });
  });
});
