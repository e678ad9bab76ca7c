import type { GrpoConfig } from '../src/rl/config.ts';
import { runConfig, type RunSpec } from '../src/run/run-spec.ts';
import {
  CLI_SETTINGS,
  DEPENDENT_DEFAULTS,
  defaultFor,
  plainDefault,
  resolveSettings,
  settingConflict,
  withNames,
  type CliEntry,
  type SettingEntry,
  type SettingValues,
} from '../src/rl/settings.ts';
import { collapseSchedule, parseSchedule } from '../src/rl/level-schedule.ts';
import { METHODS, variantOf, type Method } from '../src/interventions/methods.ts';
import { FAMILY_IDS, familyEntry } from '../src/tasks/index.ts';
import { INIT_FLAG } from './base-checkpoint.ts';
import {
  BACKEND_FLAG,
  MODEL_FLAG,
  SCHEDULE_FLAG,
  TASK_FLAG,
  THREADS_FLAG,
  modelOf,
  taskOf,
} from './common-flags.ts';
import { UsageError, type Flag, type FlagValues } from './flags.ts';

/** A setting as the command line names it. */
function flagName(s: SettingEntry): string {
  if (!s.cli) throw new Error(`the help of a flag names ${s.key}, which has no flag`);
  return `--${s.cli.flag}`;
}

/** The task's collapse-scenario default of every family, for a flag's help: "arithmetic 0, listlang 4". */
function scenarioDefaults(s: SettingEntry): string {
  const rule = DEPENDENT_DEFAULTS[s.key];
  const each = FAMILY_IDS.map((id) => `${id} ${defaultFor(s, familyEntry(id).collapse)}`);
  return `default the task's collapse scenario's, ${[...each, ...(rule ? [rule.help] : [])].join(', ')}`;
}

/** A trainer setting as a flag: its entry in src/rl/settings.ts. */
function settingFlag(s: CliEntry): Flag {
  const note = s.cli.note ? `; ${s.cli.note}` : '';
  return {
    name: s.cli.flag,
    kind: s.integer ? 'int' : 'number',
    // A per-task default is the run's to settle (resolveSettings); the flag stays unset.
    ...(s.collapse ? {} : { default: plainDefault(s) }),
    min: s.min,
    ...(Number.isFinite(s.max) ? { max: s.max } : {}),
    help: withNames(`${s.doc}${note}${s.collapse ? ` (${scenarioDefaults(s)})` : ''}`, flagName),
  };
}

const SETTING_FLAGS = CLI_SETTINGS.map(settingFlag);

/** The flags of `npm run experiment` (the table reads them too, to know what a run would be). */
export const EXPERIMENT_FLAGS: Flag[] = [
  TASK_FLAG,
  {
    name: 'method',
    kind: 'string',
    default: 'none',
    help: `intervention: ${METHODS.join(', ')}, or a module file (.js, .ts) that exports one (docs/interventions.md)`,
  },
  { name: 'seed', kind: 'int', default: 1, min: 0, help: 'run seed (problems, sampling)' },
  {
    name: 'scenario',
    kind: 'choice',
    choices: ['collapse', 'easy'],
    default: 'collapse',
    help: "collapse: the family's easy→hard jump; easy: stay at the easy level",
  },
  SCHEDULE_FLAG,
  { name: 'steps', kind: 'int', default: 400, min: 1, help: 'GRPO steps' },
  MODEL_FLAG,
  INIT_FLAG,
  BACKEND_FLAG,
  THREADS_FLAG,
  ...SETTING_FLAGS,
  {
    name: 'mentor-channel',
    kind: 'choice',
    choices: ['scaffold', 'demonstrate'],
    help: "the mentor's channel (default: the mentor's own); demonstrate: the method mentor-demonstrate",
  },
  {
    name: 'mentor-shaped',
    kind: 'choice',
    choices: ['off', 'whole', 'sampled'],
    help: 'mentor only: how its re-attempts are learned in the unhinted prompt: shaped on the tokens it drew (sampled, the default), shaped whole (the method mentor-whole), or importance-weighted (off: mentor-importance)',
  },
  {
    name: 'mentor-remind',
    kind: 'choice',
    choices: ['on', 'off'],
    help: "mentor only: a failing replayed group of the easy level gets its answer back as a reminder (on, the default) or the mentor's usual help (off: the method mentor-no-reminder)",
  },
  {
    name: 'teacher-format',
    kind: 'choice',
    choices: ['own', 'other'],
    help: "where the task writes working: the notation of the teacher's worked solutions a method shows (offpolicy*, prefix): the policy's own (the default) or another notation of the same working",
  },
  {
    name: 'refine-from-mark',
    kind: 'bool',
    help: 'refine only: each refinement goes on from the critique mark (what it says is right forced; the method refine-from-mark)',
  },
  { name: 'out', kind: 'string', help: 'JSONL output file (default: stdout)' },
  {
    name: 'save',
    kind: 'string',
    help: 'write the policy at the end of the run to this checkpoint (for --init, literacy, gate, the page)',
  },
];

/**
 * The variants' spellings as flags of the method they vary, from before each was a method of its
 * own: kept so that the commands in docs/results/history.md still run, their runs labelled as
 * they always were (by the method varied). A flag at its default value is the method itself.
 */
const VARIANT_FLAGS: readonly { flag: string; value: string | boolean; variant: Method }[] = [
  { flag: 'mentor-shaped', value: 'off', variant: 'mentor-importance' },
  { flag: 'mentor-shaped', value: 'whole', variant: 'mentor-whole' },
  { flag: 'mentor-channel', value: 'demonstrate', variant: 'mentor-demonstrate' },
  { flag: 'mentor-remind', value: 'off', variant: 'mentor-no-reminder' },
  { flag: 'refine-from-mark', value: true, variant: 'refine-from-mark' },
];

/**
 * The method flags `f` run (`--method`, or the variant its variant flag spells) and what the run
 * is labelled. Throws UsageError for a variant flag beside another method or another variant.
 */
export function methodOf(f: FlagValues): { method: string; label: string } {
  const method = String(f.method);
  for (const v of VARIANT_FLAGS) {
    // A bool flag given as false is not given.
    if (f[v.flag] === undefined || f[v.flag] === false) continue;
    const of = variantOf(v.variant);
    if (method !== of)
      throw new UsageError(
        `--${v.flag} is a variant of --method ${of} (or name the variant as --method)`,
      );
  }
  const spelled = VARIANT_FLAGS.filter((v) => f[v.flag] === v.value);
  if (spelled.length > 1)
    throw new UsageError(
      `${spelled.map((v) => `--${v.flag}`).join(' and ')}: one variant at a time (${spelled.map((v) => v.variant).join(', ')} are methods of their own)`,
    );
  return { method: spelled[0]?.variant ?? method, label: method };
}

/**
 * The run that `npm run experiment` with flags `f` describes: its settings the flags, and the
 * task's collapse scenario where they are silent. Throws UsageError for settings that do not go
 * together.
 */
export function runSpecOf(f: FlagValues): RunSpec {
  const { task, entry } = taskOf(f);
  let schedule;
  try {
    schedule = f.schedule
      ? parseSchedule(String(f.schedule), entry.training.levels)
      : collapseSchedule(entry.collapse).slice(0, f.scenario === 'easy' ? 1 : undefined);
  } catch (e) {
    throw new UsageError(`--schedule: ${(e as Error).message}`);
  }
  const given: Partial<SettingValues> = {};
  for (const s of CLI_SETTINGS) {
    const value = f[s.cli.flag];
    if (value !== undefined) given[s.key] = Number(value);
  }
  const settings = resolveSettings(given, entry.collapse);
  const conflict = settingConflict(settings, flagName);
  if (conflict) throw new UsageError(conflict);
  return {
    task,
    method: methodOf(f).method,
    model: modelOf(f),
    seed: Number(f.seed),
    schedule,
    settings,
    steps: Number(f.steps),
    teacher: f['teacher-format'] === 'other' ? 'other' : 'own',
  };
}

/** The trainer's config of that run (what a table compares to know a run is the one it would run). */
export function experimentConfig(f: FlagValues): GrpoConfig {
  return runConfig(runSpecOf(f));
}
