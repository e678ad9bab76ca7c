import { METHODS, isMethod, variantOf } from '../../src/interventions/methods.ts';
import { methodRunsOn } from '../../src/run/run-spec.ts';
import { isModulePath } from '../module-method/module-intervention.ts';
import { collapseSchedule, parseSchedule, type LevelChange } from '../../src/rl/level-schedule.ts';
import type { FamilyEntry, TaskId } from '../../src/tasks/index.ts';
import { INIT_FLAG } from '../base-checkpoint.ts';
import { SCHEDULE_FLAG, TASK_FLAG, taskOf } from '../common-flags.ts';
import { UsageError, parseFlags, type Flag } from '../flags.ts';
import { RUN_MODE_FLAGS, runModeOf, type RunMode } from './run-mode.ts';

export const TABLE_SUMMARY =
  'Run every method on every seed (collapse scenario) and write the recovery table and plots.';

export const TABLE_FLAGS: Flag[] = [
  TASK_FLAG,
  { name: 'seeds', kind: 'string', default: '1,2,3', help: 'comma-separated run seeds' },
  {
    name: 'methods',
    kind: 'string',
    help: 'comma-separated methods: built-in ones and module files (./mine.js) that export one (default: every built-in method the task can run, its variants left out)',
  },
  {
    name: 'scenario',
    kind: 'choice',
    choices: ['collapse'],
    default: 'collapse',
    help: "the family's easy→hard jump (its collapse scenario)",
  },
  SCHEDULE_FLAG,
  { name: 'steps', kind: 'int', default: 1000, min: 1, help: 'GRPO steps per run' },
  { ...INIT_FLAG, help: `every run's ${INIT_FLAG.help}` },
  {
    name: 'jobs',
    kind: 'int',
    default: 2,
    min: 1,
    max: 16,
    help: 'runs at once (one CPU core each)',
  },
  {
    name: 'out-dir',
    kind: 'string',
    help: 'where runs, table.md and the plots go (default runs/table-<task>)',
  },
  {
    name: 'reuse',
    kind: 'bool',
    default: false,
    help: 'keep finished runs already in out-dir (refused where one ran with other flags, trainer settings or starting policy)',
  },
  {
    name: 'ceiling',
    kind: 'bool',
    default: false,
    help: "also fine-tune the shipped base on reference answers at RL's budget, and plot it",
  },
  {
    name: 'reference',
    kind: 'string',
    help: "the method the protocol's ratios divide by, one of --methods (default: mentor; docs/protocol.md)",
  },
  {
    name: 'extra',
    kind: 'string',
    default: '',
    help: 'extra flags passed to every experiment, e.g. "--eval-every 20"',
  },
  ...RUN_MODE_FLAGS,
];

/** The table the command line asks for. */
export interface TableArgs {
  task: TaskId;
  /** --task as given (a family's id, or a task module's file): what each run is passed. */
  taskFlag: string;
  /** --init as given: every run starts from this checkpoint; undefined, from the task's base. */
  init: string | undefined;
  entry: FamilyEntry;
  seeds: number[];
  methods: string[];
  /** The levels over the steps: --schedule's, or the family's collapse scenario. */
  schedule: LevelChange[];
  /** --schedule as given, passed on to every run; undefined where the scenario stands. */
  scheduleText: string | undefined;
  steps: number;
  jobs: number;
  dir: string;
  reuse: boolean;
  ceiling: boolean;
  /** The method the protocol's ratios divide by (the mentor unless --reference says). */
  reference: string;
  /** Flags passed to every run after the table's own. */
  extra: string[];
  /** How the plan is had: run here, printed, collected or submitted to Slurm. */
  mode: RunMode;
}

function list(s: string, what: string): string[] {
  const xs = s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (xs.length === 0) throw new UsageError(`--${what} is empty`);
  return xs;
}

/** The table the command line asks for; bad flags or values throw UsageError. */
export function parseTableArgs(argv: readonly string[]): TableArgs {
  const f = parseFlags(argv, TABLE_FLAGS);
  const { task, entry, flag: taskFlag } = taskOf(f);
  const seeds = list(String(f.seeds), 'seeds').map((s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`--seeds: "${s}" is not a seed`);
    return n;
  });
  const methods =
    f.methods === undefined
      ? METHODS.filter((m) => variantOf(m) === null && methodRunsOn(m, task))
      : list(String(f.methods), 'methods');
  for (const m of methods)
    if (!isMethod(m) && !isModulePath(m))
      throw new UsageError(`--methods: ${m} is neither a method nor a module file (.js, .ts)`);
    else if (!methodRunsOn(m, task))
      throw new UsageError(
        `--methods: ${m}'s lessons are made of working, which ${task} does not write`,
      );
  // The default reference may be absent (then no ratios); one asked for must be in the table.
  if (f.reference !== undefined && !methods.includes(String(f.reference)))
    throw new UsageError(`--reference: ${String(f.reference)} is not one of --methods`);
  const reference = f.reference === undefined ? 'mentor' : String(f.reference);
  const scheduleText = f.schedule ? String(f.schedule) : undefined;
  let schedule;
  try {
    schedule = scheduleText
      ? parseSchedule(scheduleText, entry.family.levels)
      : collapseSchedule(entry.collapse);
  } catch (e) {
    throw new UsageError(`--schedule: ${(e as Error).message}`);
  }
  return {
    task,
    taskFlag,
    init: f.init === undefined ? undefined : String(f.init),
    entry,
    seeds,
    methods,
    schedule,
    scheduleText,
    steps: Number(f.steps),
    jobs: Number(f.jobs),
    dir: String(f['out-dir'] ?? `runs/table-${task}`),
    reuse: Boolean(f.reuse),
    ceiling: Boolean(f.ceiling),
    reference,
    extra: String(f.extra).split(/\s+/).filter(Boolean),
    mode: runModeOf(f),
  };
}
