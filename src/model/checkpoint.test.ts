import { describe, expect, it, vi } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpu-backend.ts';
import { checkBatch, CHECK_CONFIG } from './selfcheck/model-checks.ts';
import { loadCheckpoint, saveCheckpoint } from './checkpoint.ts';
import { CheckpointError } from './safetensors.ts';
import { Transformer } from './transformer.ts';

async function bytesOfModel(): Promise<Uint8Array> {
  return saveCheckpoint(Transformer.create(new CpuBackend(), CHECK_CONFIG, 11), { note: 'test' });
}

/** Rewrite a checkpoint's JSON header with `edit`, keeping the data bytes. */
function editHeader(
  bytes: Uint8Array,
  edit: (h: Record<string, unknown>) => void,
  dataEdit?: (d: Uint8Array) => Uint8Array,
): Uint8Array {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  edit(header);
  const json = new TextEncoder().encode(JSON.stringify(header));
  const data = (dataEdit ?? ((d) => d))(bytes.subarray(8 + n));
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return out;
}

function loadFails(bytes: Uint8Array, message: RegExp): void {
  const be = new CpuBackend();
  const alloc = vi.spyOn(be, 'alloc');
  expect(() => loadCheckpoint(be, bytes)).toThrow(CheckpointError);
  expect(() => loadCheckpoint(be, bytes)).toThrow(message);
  // Never a partial load: nothing was allocated on the backend.
  expect(alloc).not.toHaveBeenCalled();
}

describe('checkpoints (safetensors)', () => {
  it('round-trips exactly: same tensors, same metadata, same log-probs', async () => {
    const be = new CpuBackend();
    const model = Transformer.create(be, CHECK_CONFIG, 11);
    const bytes = await saveCheckpoint(model, { note: 'test' });
    const { model: loaded, metadata } = loadCheckpoint(be, bytes);
    expect(metadata.note).toBe('test');
    expect(loaded.config).toEqual(CHECK_CONFIG);
    const [a, b] = [await model.params.toTensors(), await loaded.params.toTensors()];
    expect(b.map((t) => t.name)).toEqual(a.map((t) => t.name));
    b.forEach((t, i) => expect(t.data).toEqual(a[i].data));
    const { batch } = checkBatch();
    expect((await loaded.score(batch)).logp).toEqual((await model.score(batch)).logp);
    expect(await saveCheckpoint(loaded, { note: 'test' })).toEqual(bytes);
  });

  it('names the tensor with a wrong shape', async () => {
    const bytes = editHeader(await bytesOfModel(), (h) => {
      const e = h['blocks.1.mlp.fc.bias'] as { shape: number[]; data_offsets: number[] };
      e.shape = [16, 2];
    });
    loadFails(bytes, /tensor "blocks\.1\.mlp\.fc\.bias": shape \[16,2\], the model needs \[32\]/);
  });

  it('names the tensor with a wrong dtype', async () => {
    const bytes = editHeader(await bytesOfModel(), (h) => {
      (h['ln_f.bias'] as { dtype: string }).dtype = 'F16';
    });
    loadFails(bytes, /tensor "ln_f\.bias": dtype F16, expected F32/);
  });

  it('rejects a truncated header', async () => {
    const bytes = await bytesOfModel();
    loadFails(bytes.subarray(0, 40), /truncated header/);
    loadFails(bytes.subarray(0, 5), /too short/);
  });

  it('rejects truncated data, naming the tensor', async () => {
    const bytes = await bytesOfModel();
    loadFails(
      bytes.subarray(0, bytes.length - 4),
      /tensor "lm_head\.weight": data ends at byte \d+, past the file/,
    );
  });

  it('rejects bytes past the end', async () => {
    const bytes = await bytesOfModel();
    const longer = new Uint8Array(bytes.length + 8);
    longer.set(bytes);
    loadFails(longer, /8 bytes past the end of the last tensor/);
  });

  it('rejects a missing tensor, an unknown tensor and a bad config', async () => {
    const bytes = await bytesOfModel();
    loadFails(
      editHeader(bytes, (h) => {
        h['extra.weight'] = h['ln_f.bias'];
        delete h['ln_f.bias'];
      }),
      /tensor "ln_f\.bias" is missing/,
    );
    loadFails(
      editHeader(bytes, (h) => {
        (h.__metadata__ as Record<string, string>).config = JSON.stringify({
          ...CHECK_CONFIG,
          heads: 3,
        });
      }),
      /heads \(3\) must divide dModel/,
    );
    loadFails(
      new TextEncoder().encode('not a checkpoint at all'),
      /truncated header|not valid JSON/,
    );
  });

  it('rejects non-finite weights', async () => {
    const bytes = editHeader(
      await bytesOfModel(),
      () => {},
      (d) => {
        const copy = d.slice();
        new DataView(copy.buffer).setFloat32(0, NaN, true);
        return copy;
      },
    );
    loadFails(bytes, /tensor "tok_emb\.weight": element 0 is not finite/);
  });
});
