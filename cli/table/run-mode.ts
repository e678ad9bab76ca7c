import { UsageError, type Flag, type FlagValues } from '../flags.ts';

/** What sbatch is given for the table's array, besides the array itself. */
export interface SbatchOptions {
  partition?: string;
  /** Each task's time limit, in sbatch's --time syntax. */
  time?: string;
  cpusPerTask?: number;
  /** Each task's memory, in sbatch's --mem syntax. */
  mem?: string;
  /** Further flags for sbatch, passed as given. */
  extra: string[];
}

/**
 * How the table's plan is had: run here in the job pool, printed as shell commands for another
 * runner, collected from what has landed in the out-dir, or submitted as one Slurm job array.
 */
export type RunMode =
  | { kind: 'local' }
  | { kind: 'print-commands' }
  | { kind: 'collect' }
  | {
      kind: 'slurm';
      sbatch: SbatchOptions;
      /** Wait for the array and build the table (else submit and return). */
      wait: boolean;
      /** Submit only the runs missing or failed in the out-dir. */
      resume: boolean;
      /** Seconds between looks at the queue while waiting. */
      pollS: number;
    };

const SLURM_ONLY = [
  'partition',
  'time',
  'cpus-per-task',
  'mem',
  'sbatch-args',
  'no-wait',
  'resume',
];

export const RUN_MODE_FLAGS: Flag[] = [
  {
    name: 'on',
    kind: 'choice',
    choices: ['local', 'slurm'],
    default: 'local',
    help: 'where the runs run: here (--jobs at once), or as one Slurm job array (docs/cluster.md)',
  },
  { name: 'partition', kind: 'string', help: 'Slurm: the partition to submit to' },
  {
    name: 'time',
    kind: 'string',
    help: "Slurm: each run's time limit (sbatch --time, e.g. 2:00:00)",
  },
  { name: 'cpus-per-task', kind: 'int', min: 1, help: 'Slurm: CPUs for each run' },
  { name: 'mem', kind: 'string', help: "Slurm: each run's memory (sbatch --mem, e.g. 2G)" },
  { name: 'sbatch-args', kind: 'string', help: 'Slurm: more flags for sbatch, e.g. "--account x"' },
  {
    name: 'no-wait',
    kind: 'bool',
    default: false,
    help: 'Slurm: submit and return (the job id and how to collect); else wait and build the table',
  },
  {
    name: 'resume',
    kind: 'bool',
    default: false,
    help: 'Slurm: submit only the runs --collect lists as missing or failed (as --reuse does)',
  },
  {
    name: 'poll',
    kind: 'int',
    default: 10,
    min: 1,
    help: 'Slurm: seconds between looks at the queue while waiting',
  },
  {
    name: 'print-commands',
    kind: 'bool',
    default: false,
    help: 'print one shell command per run still to run (from the checkout root), run nothing',
  },
  {
    name: 'collect',
    kind: 'bool',
    default: false,
    help: 'build the table from the runs in out-dir, running nothing; lists those missing or failed',
  },
];

/** The run mode --on, --print-commands and --collect ask for; flags that do not fit throw. */
export function runModeOf(f: FlagValues): RunMode {
  const chosen = [
    ...(f.on === 'slurm' ? ['--on slurm'] : []),
    ...(f['print-commands'] ? ['--print-commands'] : []),
    ...(f.collect ? ['--collect'] : []),
  ];
  if (chosen.length > 1) throw new UsageError(`${chosen.join(' and ')} do not go together`);
  if (f.on !== 'slurm') {
    // Booleans are false by default, so given or not reads alike for them.
    const given = SLURM_ONLY.filter((name) => f[name] !== undefined && f[name] !== false);
    if (given.length > 0) throw new UsageError(`--${given[0]} is for --on slurm`);
  }
  if (f['print-commands']) return { kind: 'print-commands' };
  if (f.collect) return { kind: 'collect' };
  if (f.on !== 'slurm') return { kind: 'local' };
  const text = (name: string) => (f[name] === undefined ? undefined : String(f[name]));
  return {
    kind: 'slurm',
    sbatch: {
      partition: text('partition'),
      time: text('time'),
      cpusPerTask: f['cpus-per-task'] === undefined ? undefined : Number(f['cpus-per-task']),
      mem: text('mem'),
      extra: String(f['sbatch-args'] ?? '')
        .split(/\s+/)
        .filter(Boolean),
    },
    wait: !f['no-wait'],
    resume: Boolean(f.resume),
    pollS: Number(f.poll),
  };
}
