// What a backend badge says, and in which tone: green for WebGPU, plain for a CPU chosen on
// purpose (asked for, or faster than a software adapter), orange only where WebGPU was wanted and
// failed, red for an error.
import type { BackendInfo } from './selfcheck-client.ts';

export type BadgeTone = 'gpu' | 'plain' | 'warn' | 'bad' | 'wait';

export function backendBadge(
  info: BackendInfo | null,
  error: string | null,
  waiting: string,
): { text: string; tone: BadgeTone } {
  if (error) return { text: `Backend error: ${error}`, tone: 'bad' };
  if (!info) return { text: waiting, tone: 'wait' };
  // Timed against the other at start: which, and why.
  const text = info.chosenBecause ? `${info.name}: ${info.chosenBecause}` : info.name;
  if (info.kind === 'webgpu') return { text, tone: 'gpu' };
  // On the CPU, its threads last: how many, or why one.
  const threads = info.threads ? ` · ${info.threads}` : '';
  if (!info.fallbackReason) return { text: `${text}${threads}`, tone: 'plain' };
  return info.fallbackChosen
    ? { text: `${info.name}, chosen: ${info.fallbackReason}${threads}`, tone: 'plain' }
    : { text: `CPU fallback: ${info.fallbackReason}${threads}`, tone: 'warn' };
}
