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
 * The table's runs as a plan: every method on every seed, each one command and one output path;
 * `names` gives the name of each module method (by its file) that it goes by.
 * The plan says nothing of how its runs are run (the local job pool is one way).
 */
export function tablePlan(
  a: Pick<
    TableArgs,
    'taskFlag' | 'init' | 'methods' | 'seeds' | 'steps' | 'dir' | 'extra' | 'scheduleText'
  >,
  names: Readonly<Record<string, string>> = {},
): TableRun[] {
  return a.methods.flatMap((given) =>
    a.seeds.map((seed) => {
      // A module method goes by its name in files, tables and plots; its runs load its file.
      const method = names[given] ?? given;
      const out = join(a.dir, `${method}-seed${seed}.jsonl`);
      const args = [
        ...['--task', a.taskFlag, '--method', given, '--seed', String(seed)],
        ...(a.init === undefined ? [] : ['--init', a.init]),
        ...['--steps', String(a.steps), '--out', out, ...a.extra],
        ...(a.scheduleText ? ['--schedule', a.scheduleText] : []),
      ];
      return { method, seed, args, out };
    }),
  );
}
