import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFixtures } from '../../../../scripts/make-llm-fixture.ts';
import { GARBAGE_FIXTURE, LLM_FIXTURES, VALID_FIXTURE } from './fixtures.ts';
import { LlmError, loadTextGenerator } from './runtime.ts';

const MODELS = fileURLToPath(new URL('../../../../public/models', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'llm-fixture-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

async function loadError(modelId: string, modelRoot: string): Promise<LlmError> {
  const e: unknown = await loadTextGenerator(modelId, { local: true, modelRoot }).then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof LlmError)) throw new Error(`expected an LlmError, got ${String(e)}`);
  return e;
}

describe('LLM runtime on the generated fixtures (offline)', () => {
  it.each(LLM_FIXTURES)('$id replies with its fixed text to a prompt and to a chat', async (f) => {
    const progress: [number, number][] = [];
    const gen = await loadTextGenerator(f.id, {
      local: true,
      modelRoot: MODELS,
      onProgress: (loaded, total) => progress.push([loaded, total]),
    });
    expect(
      await gen.generate('Diagnosis: all 8 attempts miss the carry.', { maxNewTokens: 200 }),
    ).toBe(f.reply);
    const chat = [
      { role: 'system', content: 'You are the Instructor.' },
      { role: 'user', content: 'Propose a hint.' },
    ] as const;
    expect(await gen.generate(chat, { maxNewTokens: 200 })).toBe(f.reply);
    expect(progress.at(-1)?.[0]).toBeGreaterThan(0);
    expect(progress.at(-1)?.[0]).toBe(progress.at(-1)?.[1]);
    await gen.dispose();
  });

  it('stops at maxNewTokens and when aborted', async () => {
    const gen = await loadTextGenerator(VALID_FIXTURE.id, { local: true, modelRoot: MODELS });
    expect(await gen.generate('x', { maxNewTokens: 4 })).toBe(VALID_FIXTURE.reply.slice(0, 4));
    const controller = new AbortController();
    const pending = gen.generate('x', { maxNewTokens: 200, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow(/aborted while generating/);
    await expect(
      gen.generate('x', { maxNewTokens: 200, signal: controller.signal }),
    ).rejects.toBeInstanceOf(LlmError);
    await gen.dispose();
  });

  it('says clearly when a model or its tokenizer is missing', async () => {
    const e = await loadError('no-such-model', MODELS);
    expect(e.kind).toBe('missing');
    expect(e.message).toMatch(/"no-such-model" not found/);
    cpSync(join(MODELS, VALID_FIXTURE.id), join(scratch, 'untokenized'), { recursive: true });
    rmSync(join(scratch, 'untokenized/tokenizer_config.json'));
    const t = await loadError('untokenized', scratch);
    expect(t.kind).toBe('missing');
    expect(t.message).toMatch(/"untokenized" in .* has no tokenizer/);
  });

  it('says clearly when a model file is corrupt', async () => {
    for (const [name, bytes] of [
      ['junk', new TextEncoder().encode('this is not an onnx file')],
      [
        'truncated',
        readFileSync(join(MODELS, GARBAGE_FIXTURE.id, 'onnx/model.onnx')).subarray(0, 500),
      ],
    ] as const) {
      cpSync(join(MODELS, GARBAGE_FIXTURE.id), join(scratch, name), { recursive: true });
      writeFileSync(join(scratch, name, 'onnx/model.onnx'), bytes);
      const e = await loadError(name, scratch);
      expect(e.kind).toBe('invalid');
      expect(e.message).toMatch(new RegExp(`"${name}" from .* could not be loaded \\(corrupt`));
    }
  });

  it('regenerates the committed fixtures byte for byte', () => {
    const out = join(scratch, 'regenerated');
    writeFixtures(out);
    for (const f of LLM_FIXTURES) {
      const committed = join(MODELS, f.id);
      const files = filesUnder(committed);
      expect(filesUnder(join(out, f.id))).toEqual(files);
      for (const file of files) {
        expect(
          readFileSync(join(out, f.id, file)).equals(readFileSync(join(committed, file))),
          file,
        ).toBe(true);
      }
    }
  });
});
