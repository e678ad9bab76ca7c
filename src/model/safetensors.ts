/** A named float32 tensor as stored in a checkpoint. */
export interface NamedTensor {
  name: string;
  shape: number[];
  data: Float32Array;
}

export class CheckpointError extends Error {
  override name = 'CheckpointError';
}

/** Refuse headers past this size: a corrupt length field must not make us allocate gigabytes. */
const MAX_HEADER_BYTES = 16 * 1024 * 1024;

/**
 * Serialise to the safetensors format: an 8-byte little-endian header length, a JSON header
 * (dtype, shape, byte offsets per tensor, string metadata in "__metadata__"), then the raw
 * little-endian data. The header is padded with spaces to keep the data 8-byte aligned.
 */
export function serializeSafetensors(
  tensors: readonly NamedTensor[],
  metadata: Record<string, string>,
): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  for (const t of tensors) {
    const bytes = t.data.length * 4;
    header[t.name] = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - ((8 + new TextEncoder().encode(json).length) % 8)) % 8);
  const headerBytes = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  let at = 8 + headerBytes.length;
  for (const t of tensors) {
    const bytes = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    out.set(bytes, at);
    at += bytes.length;
  }
  return out;
}

interface HeaderEntry {
  dtype: unknown;
  shape: unknown;
  data_offsets: unknown;
}

/**
 * The header of a safetensors file and its string metadata, read without the tensors (checked as
 * far as they go: a length that fits the file, a JSON object, string metadata).
 */
export function safetensorsHeader(bytes: Uint8Array): {
  header: Record<string, unknown>;
  metadata: Record<string, string>;
  dataStart: number;
} {
  if (bytes.length < 8)
    throw new CheckpointError(`file is ${bytes.length} bytes: too short for a safetensors header`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLen = Number(view.getBigUint64(0, true));
  if (headerLen > MAX_HEADER_BYTES || 8 + headerLen > bytes.length) {
    throw new CheckpointError(
      `truncated header: it claims ${headerLen} bytes, the file has ${bytes.length - 8} after the length`,
    );
  }
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + headerLen)),
    );
  } catch (e) {
    throw new CheckpointError(`header is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    throw new CheckpointError('header is not a JSON object');
  }
  const metadata: Record<string, string> = {};
  const rawMeta = header.__metadata__;
  if (rawMeta !== undefined) {
    if (typeof rawMeta !== 'object' || rawMeta === null)
      throw new CheckpointError('__metadata__ is not an object');
    for (const [k, v] of Object.entries(rawMeta)) {
      if (typeof v !== 'string') throw new CheckpointError(`__metadata__.${k} is not a string`);
      metadata[k] = v;
    }
  }
  return { header, metadata, dataStart: 8 + headerLen };
}

/**
 * Parse and validate a whole safetensors file: any inconsistency — truncated header, a dtype
 * other than F32, a shape that does not match its byte range, overlapping or out-of-range data,
 * bytes past the last tensor — throws a CheckpointError naming the tensor and the problem.
 */
export function parseSafetensors(bytes: Uint8Array): {
  tensors: NamedTensor[];
  metadata: Record<string, string>;
} {
  const { header, metadata, dataStart } = safetensorsHeader(bytes);
  const dataLen = bytes.length - dataStart;
  const entries = Object.entries(header).filter(([k]) => k !== '__metadata__');
  const ranges: { name: string; begin: number; end: number }[] = [];
  const tensors: NamedTensor[] = [];
  for (const [name, raw] of entries) {
    const e = raw as HeaderEntry;
    if (typeof e !== 'object' || e === null)
      throw new CheckpointError(`tensor "${name}": header entry is not an object`);
    if (e.dtype !== 'F32')
      throw new CheckpointError(`tensor "${name}": dtype ${String(e.dtype)}, expected F32`);
    if (!Array.isArray(e.shape) || !e.shape.every((n) => Number.isInteger(n) && n >= 0)) {
      throw new CheckpointError(
        `tensor "${name}": shape ${JSON.stringify(e.shape)} is not a list of sizes`,
      );
    }
    const offs = e.data_offsets;
    if (
      !Array.isArray(offs) ||
      offs.length !== 2 ||
      !offs.every((n) => Number.isInteger(n) && n >= 0) ||
      offs[1] < offs[0]
    ) {
      throw new CheckpointError(`tensor "${name}": bad data_offsets ${JSON.stringify(offs)}`);
    }
    const [begin, end] = offs as [number, number];
    const count = (e.shape as number[]).reduce((a, b) => a * b, 1);
    if (end - begin !== count * 4) {
      throw new CheckpointError(
        `tensor "${name}": shape ${JSON.stringify(e.shape)} needs ${count * 4} bytes, offsets give ${end - begin}`,
      );
    }
    if (end > dataLen) {
      throw new CheckpointError(
        `tensor "${name}": data ends at byte ${end}, past the file's ${dataLen} data bytes (truncated?)`,
      );
    }
    ranges.push({ name, begin, end });
    const data = new Float32Array(count);
    new Uint8Array(data.buffer).set(bytes.subarray(dataStart + begin, dataStart + end));
    tensors.push({ name, shape: e.shape as number[], data });
  }
  ranges.sort((a, b) => a.begin - b.begin);
  let covered = 0;
  for (const r of ranges) {
    if (r.begin < covered)
      throw new CheckpointError(`tensor "${r.name}": its bytes overlap another tensor's`);
    if (r.begin > covered)
      throw new CheckpointError(
        `tensor "${r.name}": a gap of ${r.begin - covered} bytes precedes it`,
      );
    covered = r.end;
  }
  if (covered !== dataLen)
    throw new CheckpointError(`${dataLen - covered} bytes past the end of the last tensor`);
  return { tensors, metadata };
}
