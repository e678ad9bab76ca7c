import { rivalMethods } from '../../src/interventions/methods.ts';
import {
  protocolMarkdown,
  SUPERVISED_ROW,
  supervisedFigures,
} from '../../src/research/protocol-table.ts';
import { rescueBins, rescueBinsMarkdown } from '../../src/research/rescue-bins.ts';
import { methodRows, resultsMarkdown, type RunRecord } from '../../src/research/results.ts';
import { runFaults, runFaultsMarkdown } from '../../src/research/run-faults.ts';
import { formatSchedule, type LevelChange } from '../../src/rl/level-schedule.ts';
import type { SupervisedRun } from './ceiling.ts';

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
  supervised: readonly SupervisedRun[] | null;
  /** The method the protocol's ratios divide by; absent from `methods`, no ratios. */
  reference: string;
  /** The task's worked solutions need a teacher: compute is sampled + teacher tokens. */
  teacher: boolean;
  note: RunsNote;
}

/** How the supervised row was trained, and where its figures are. */
function supervisedLine(runs: readonly SupervisedRun[]): string {
  const o = runs[0].opts;
  return `The \`${SUPERVISED_ROW}\` row: the base fine-tuned on reference answers from the jump on, ${o.batch} examples a step at ${o.lr.toExponential()} (warm-up and cosine), ${o.easyShare * 100}% from the easy level, one run a seed, on the runs' evals; dashed in the plot (median over seeds).`;
}

function runsLine(n: RunsNote): string {
  return n.ran === 0
    ? `Runs: ${n.total}, all read back from ${n.dir}.`
    : `Runs: ${n.total} (${n.ran} run now, ${n.minutes.toFixed(1)} min ${n.how}).`;
}

/**
 * table.md: the heading, the faults the runs reported (where any), the protocol's table (docs/protocol.md) with the supervised row where it
 * ran, the table of the runs' other figures, what the rescues are made of, the plots, the runs.
 */
export function tableMarkdown(t: TableMarkdownInput): string {
  const jump = t.schedule[t.schedule.length - 1].step;
  const rescues = rescueBinsMarkdown(rescueBins(t.runs, t.methods, jump));
  const faults = runFaultsMarkdown(runFaults(t.runs, jump));
  return [
    `### ${t.task}: schedule ${formatSchedule(t.schedule)}, ${t.steps} steps, seeds ${t.seeds.join(',')}`,
    '',
    ...(faults ? [faults, ''] : []),
    protocolMarkdown({
      runs: t.runs,
      methods: t.methods,
      reference: t.methods.includes(t.reference) ? t.reference : null,
      jump,
      rivals: rivalMethods(t.teacher),
      teacher: t.teacher,
      ...(t.supervised
        ? {
            supervised: t.supervised.map((r) =>
              supervisedFigures(r.seed, r.points, r.wallS, t.teacher),
            ),
          }
        : {}),
    }),
    '',
    ...(t.supervised && t.supervised.length > 0 ? [supervisedLine(t.supervised), ''] : []),
    resultsMarkdown(methodRows(t.runs, t.methods)),
    '',
    ...(rescues
      ? [
          "What the rescues are made of: each method's fresh attempts (retries, refinements) from the jump on, all seeds, by the share of the reference answer their help showed; rescued: a right answer among them.",
          '',
          rescues,
          '',
        ]
      : []),
    `![eval_accuracy](eval_accuracy.svg) ![all_fail_frac](all_fail_frac.svg)`,
    '',
    runsLine(t.note),
  ].join('\n');
}
