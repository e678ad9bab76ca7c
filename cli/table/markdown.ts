import type { CeilingPoint } from '../../src/research/ceiling.ts';
import { RIVAL_METHODS } from '../../src/interventions/methods.ts';
import { protocolMarkdown } from '../../src/research/protocol-table.ts';
import { methodRows, resultsMarkdown, type RunRecord } from '../../src/research/results.ts';
import { formatSchedule, type LevelChange } from '../../src/rl/level-schedule.ts';
import type { TableCeiling } from './ceiling.ts';

/** How the table's runs were had: all read back, or how many ran now, how long and how. */
export interface RunsNote {
  total: number;
  ran: number;
  minutes: number;
  /** e.g. "with 2 at once", "as Slurm job 123". */
  how: string;
  dir: string;
}

export interface TableMarkdownInput {
  task: string;
  schedule: readonly LevelChange[];
  steps: number;
  seeds: readonly number[];
  methods: readonly string[];
  runs: readonly RunRecord[];
  ceiling: TableCeiling | null;
  /** The method the protocol's ratios divide by; absent from `methods`, no ratios. */
  reference: string;
  note: RunsNote;
}

/** When the supervised ceiling's hard-level eval reaches `threshold`, in updates as the runs count. */
function ceilingStepsTo(points: readonly CeilingPoint[], threshold: number): string {
  const hit = points.find((p) => p.hard >= threshold);
  return hit ? `after ${hit.step} steps` : 'never';
}

function ceilingLine({ opts, points }: TableCeiling): string {
  const end = points.at(-1);
  return `Supervised ceiling (the shipped base fine-tuned on reference answers, ${opts.batch} a step at ${opts.lr.toExponential()}, ${opts.easyShare * 100}% from the easy level; dashed in the plot): 0.5 ${ceilingStepsTo(points, 0.5)}, 0.8 ${ceilingStepsTo(points, 0.8)}, ${(100 * (end?.hard ?? 0)).toFixed(1)}% at the end, easy level ${(100 * (end?.easy ?? 0)).toFixed(1)}%.`;
}

function runsLine(n: RunsNote): string {
  return n.ran === 0
    ? `Runs: ${n.total}, all read back from ${n.dir}.`
    : `Runs: ${n.total} (${n.ran} run now, ${n.minutes.toFixed(1)} min ${n.how}).`;
}

/**
 * table.md: the heading, the protocol's table (docs/protocol.md), the table of the runs' other
 * figures, the ceiling's line, the plots, the runs.
 */
export function tableMarkdown(t: TableMarkdownInput): string {
  return [
    `### ${t.task}: schedule ${formatSchedule(t.schedule)}, ${t.steps} steps, seeds ${t.seeds.join(',')}`,
    '',
    protocolMarkdown({
      runs: t.runs,
      methods: t.methods,
      reference: t.methods.includes(t.reference) ? t.reference : null,
      jump: t.schedule[t.schedule.length - 1].step,
      rivals: RIVAL_METHODS,
    }),
    '',
    resultsMarkdown(methodRows(t.runs, t.methods)),
    '',
    ...(t.ceiling ? [ceilingLine(t.ceiling), ''] : []),
    `![eval_accuracy](eval_accuracy.svg) ![all_fail_frac](all_fail_frac.svg)`,
    '',
    runsLine(t.note),
  ].join('\n');
}
