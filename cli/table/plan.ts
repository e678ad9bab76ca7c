import { join } from 'node:path';
import type { TableArgs } from './args.ts';

/** One run of the table: `npm run experiment` with `args`, which writes its record to `out`. */
export interface TableRun {
  method: string;
  seed: number;
  /** The run's flags to `npm run experiment`, `--out` among them. */
  args: string[];
  /** The JSONL file the run writes. */
  out: string;
}

/**
 * The table's runs as a plan: every method on every seed, each one command and one output path.
 * The plan says nothing of how its runs are run (the local job pool is one way).
 */
export function tablePlan(
  a: Pick<TableArgs, 'task' | 'methods' | 'seeds' | 'steps' | 'dir' | 'extra' | 'scheduleText'>,
): TableRun[] {
  return a.methods.flatMap((method) =>
    a.seeds.map((seed) => {
      const out = join(a.dir, `${method}-seed${seed}.jsonl`);
      const args = [
        ...['--task', a.task, '--method', method, '--seed', String(seed)],
        ...['--steps', String(a.steps), '--out', out, ...a.extra],
        ...(a.scheduleText ? ['--schedule', a.scheduleText] : []),
      ];
      return { method, seed, args, out };
    }),
  );
}
