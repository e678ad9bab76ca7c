import { definingFlags } from '../table/reuse.ts';

/**
 * A run's JSONL less what differs from one launch of the same run to the next: each step's
 * tokens_per_s, the summary's wall_s, and where it was written (--out in the summary's flags).
 */
export function comparableRun(jsonl: string): unknown[] {
  return jsonl
    .trim()
    .split('\n')
    .map((l) => {
      const line = JSON.parse(l) as Record<string, unknown>;
      if (!('summary' in line)) {
        const { tokens_per_s: _t, ...rest } = line;
        return rest;
      }
      const { wall_s: _w, args, ...summary } = line.summary as Record<string, unknown>;
      return { summary: { ...summary, args: definingFlags(args as string[]) } };
    });
}

/** table.md less its last line, which says how long the runs took and how they were run. */
export function tableLessTiming(md: string): string {
  return md.trim().split('\n').slice(0, -1).join('\n');
}
