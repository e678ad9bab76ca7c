// A saved run as a file, exactly as it was stored: for a run this playground cannot resume (a newer
// format, damaged records), so that nothing is lost when the person discards it here. Binary
// values (checkpoints, optimizer moments) are base64 with their array type.
import type { RawRun } from './run-store.ts';

const TYPED = [Uint8Array, Float32Array, Uint32Array, Int32Array] as const;

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** The records as JSON; typed arrays become { "$type": "Float32Array", "base64": "…" }. */
export function savedRunFile(raw: RawRun): string {
  return JSON.stringify(
    { format: 'mentor-playground saved run', exportedAt: new Date().toISOString(), ...raw },
    (_key, value: unknown) => {
      const type = TYPED.find((T) => value instanceof T);
      if (!type) return value;
      const a = value as InstanceType<(typeof TYPED)[number]>;
      return {
        $type: type.name,
        base64: base64(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)),
      };
    },
  );
}
