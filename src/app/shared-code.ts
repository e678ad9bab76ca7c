// Code in a link — the custom mentor's (`mentor_code`) or the custom task's (`task_code`), both
// declared in experiment-params.ts: deflate-raw compressed, base64url. Decoding is bounded both ways, so a hostile
// link can neither fill the address bar's budget nor inflate into a huge text.
import { MENTOR_CODE_PARAM, type CodeParam } from './experiment-params.ts';

/** Longer encoded values are refused unread. */
export const MAX_ENCODED_LENGTH = 16_000;
/** Longer code is refused: far more than a mentor needs. */
export const MAX_CODE_LENGTH = 64_000;

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

async function collect(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      throw new Error(`it inflates to more than ${limit} bytes`);
    }
    parts.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
}

const piped = (bytes: Uint8Array, through: CompressionStream | DecompressionStream) =>
  new Blob([bytes as BlobPart]).stream().pipeThrough(through);

export async function encodeSharedCode(code: string): Promise<string> {
  const bytes = new TextEncoder().encode(code);
  return toBase64Url(
    await collect(piped(bytes, new CompressionStream('deflate-raw')), Number.POSITIVE_INFINITY),
  );
}

/** The code a `mentor_code` or `task_code` value carries, or an Error saying why it cannot be read. */
export async function decodeSharedCode(value: string): Promise<string> {
  if (value.length > MAX_ENCODED_LENGTH)
    throw new Error(`it is ${value.length} characters long (at most ${MAX_ENCODED_LENGTH})`);
  if (!/^[A-Za-z0-9_-]*$/.test(value)) throw new Error('it is not base64url');
  let bytes: Uint8Array;
  try {
    bytes = await collect(
      piped(fromBase64Url(value), new DecompressionStream('deflate-raw')),
      MAX_CODE_LENGTH,
    );
  } catch (e) {
    throw new Error(`it does not decompress (${(e as Error).message})`, { cause: e });
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** The query string without the code parameter, and its value (null when absent). */
export function takeSharedCode(
  search: string,
  param: CodeParam = MENTOR_CODE_PARAM,
): { search: string; value: string | null } {
  const params = new URLSearchParams(search);
  const value = params.get(param.url);
  params.delete(param.url);
  const rest = params.toString();
  return { search: rest ? `?${rest}` : '', value };
}

/** `search` (a query string, `?…` or empty) carrying an encoded value of the code parameter. */
export function withSharedCode(
  search: string,
  value: string,
  param: CodeParam = MENTOR_CODE_PARAM,
): string {
  const params = new URLSearchParams(search);
  params.set(param.url, value);
  return `?${params.toString()}`;
}

/** A link to this experiment (its query) that carries `code`. */
export async function sharedCodeLink(
  base: string,
  query: string,
  code: string,
  param: CodeParam = MENTOR_CODE_PARAM,
): Promise<string> {
  return `${base}${query}&${param.url}=${await encodeSharedCode(code)}`;
}
