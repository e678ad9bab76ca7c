import { DEFAULT_GRPO, distills, type GrpoConfig } from '../src/rl/config.ts';
import { collapseSchedule, parseSchedule } from '../src/rl/level-schedule.ts';
import { METHODS } from '../src/interventions/methods.ts';
import { FAMILY_IDS, familyEntry, type CollapseScenario } from '../src/tasks/index.ts';
import { INIT_FLAG } from './base-checkpoint.ts';
import {
  BACKEND_FLAG,
  MODEL_FLAG,
  SCHEDULE_FLAG,
  TASK_FLAG,
  modelOf,
  taskOf,
} from './common-flags.ts';
import { UsageError, type Flag, type FlagValues } from './flags.ts';

/** A collapse-scenario setting of every family, for a flag's help: "arithmetic 0, listlang 4". */
function scenarioDefaults(field: keyof CollapseScenario): string {
  return FAMILY_IDS.map((id) => `${id} ${familyEntry(id).collapse[field]}`).join(', ');
}

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
  {
    name: 'eval-every',
    kind: 'int',
    default: DEFAULT_GRPO.evalEvery,
    min: 1,
    help: 'steps between greedy unhinted evals',
  },
  {
    name: 'eval-size',
    kind: 'int',
    default: DEFAULT_GRPO.evalSize,
    min: 1,
    help: 'problems in the fixed eval set',
  },
  {
    name: 'prompts',
    kind: 'int',
    default: DEFAULT_GRPO.prompts,
    min: 1,
    help: 'prompts per step (P)',
  },
  {
    name: 'group-size',
    kind: 'int',
    default: DEFAULT_GRPO.groupSize,
    min: 2,
    help: 'answers per prompt (G)',
  },
  { name: 'lr', kind: 'number', default: DEFAULT_GRPO.lr, min: 0, help: 'AdamW learning rate' },
  {
    name: 'lr-decay',
    kind: 'number',
    min: 0,
    max: 0.99,
    help: `share of the run's steps, at its end, over which the learning rate falls (cosine) to a tenth; 0 = constant (default the task's collapse scenario's, ${scenarioDefaults('lrDecay')})`,
  },
  {
    name: 'inner-epochs',
    kind: 'int',
    default: DEFAULT_GRPO.innerEpochs,
    min: 1,
    help: 'passes per batch (>1: PPO clipping)',
  },
  {
    name: 'shaping-gamma',
    kind: 'number',
    default: DEFAULT_GRPO.offPolicyGamma,
    min: 0,
    help: "γ of the shaping f(p) = p/(p + γ) on every method's shaped tokens (off-policy answers, refinements, the mentor's re-attempts in the unhinted prompt); > 0",
  },
  {
    name: 'kl',
    kind: 'number',
    default: DEFAULT_GRPO.klCoef,
    min: 0,
    help: 'KL-to-base coefficient',
  },
  {
    name: 'distill',
    kind: 'number',
    min: 0,
    help: `weight of the mean log-loss on the base's greedy answers to the replayed prompts and --distill-prompts more (distillation to the base, every method; needs replay; default the task's collapse scenario's, ${scenarioDefaults('distill')}, and 0 with --replay 0)`,
  },
  {
    name: 'distill-max',
    kind: 'number',
    min: 0,
    help: "the distillation weight rises to this as the easy level's rollouts fall below 0.9 success, as the replay share rises to --replay-max (at or below --distill: fixed; default fixed)",
  },
  {
    name: 'distill-prompts',
    kind: 'int',
    min: 0,
    help: `extra prompts per step at the replay level learned only by distillation (no rollouts), beside the batch; needs distillation (default the task's collapse scenario's where the run distils, ${scenarioDefaults('distillPrompts')}; else 0)`,
  },
  {
    name: 'keep-failed',
    kind: 'int',
    min: 0,
    help: `answers of a failed group kept beside its re-attempts (< the group's size; default the task's collapse scenario's, ${scenarioDefaults('keepFailed')}, below the group's size)`,
  },
  {
    name: 'replay',
    kind: 'number',
    default: DEFAULT_GRPO.replay,
    min: 0,
    max: 1,
    help: 'share of prompts from the easy level after the jump, while its rollouts pass',
  },
  {
    name: 'replay-max',
    kind: 'number',
    min: 0,
    max: 1,
    help: `share of prompts from the easy level when its rollouts all fail; the share rises to it as the easy level's success falls below 0.9 (at or below --replay: a fixed share; default the task's collapse scenario's, ${scenarioDefaults('replayMax')})`,
  },
  {
    name: 'mentor-channel',
    kind: 'choice',
    choices: ['scaffold', 'demonstrate'],
    help: "the mentor's channel (default: the mentor's own)",
  },
  {
    name: 'mentor-shaped',
    kind: 'choice',
    choices: ['off', 'whole', 'sampled'],
    help: 'mentor only: how its re-attempts are learned in the unhinted prompt: shaped on the tokens it drew (sampled, the default), shaped whole, or importance-weighted (off)',
  },
  {
    name: 'mentor-remind',
    kind: 'choice',
    choices: ['on', 'off'],
    help: "mentor only: a failing replayed group of the easy level gets its answer back as a reminder (on, the default) or the mentor's usual help (off)",
  },
  {
    name: 'refine-from-mark',
    kind: 'bool',
    help: 'refine only: each refinement goes on from the critique mark (what it says is right forced)',
  },
  { name: 'out', kind: 'string', help: 'JSONL output file (default: stdout)' },
  {
    name: 'save',
    kind: 'string',
    help: 'write the policy at the end of the run to this checkpoint (for --init, literacy, gate, the page)',
  },
];

/** The steps over which the rate falls when the last `share` of `steps` anneals (at least one). */
export function lrDecayOver(steps: number, share: number): GrpoConfig['lrDecay'] {
  if (share <= 0) return null;
  return { from: Math.max(0, steps - Math.max(1, Math.round(steps * share))), to: steps };
}

/**
 * The trainer's settings a run of `npm run experiment` with flags `f` has: the flags, and the task's
 * collapse scenario where they are silent. Throws UsageError for settings that do not go together.
 */
export function experimentConfig(f: FlagValues): GrpoConfig {
  const { task, entry } = taskOf(f);
  let schedule;
  try {
    schedule = f.schedule
      ? parseSchedule(String(f.schedule), entry.training.levels)
      : collapseSchedule(entry.collapse).slice(0, f.scenario === 'easy' ? 1 : undefined);
  } catch (e) {
    throw new UsageError(`--schedule: ${(e as Error).message}`);
  }
  // The scenario's distillation lives on its replay: none without it; an explicit one is checked.
  const distillCoef =
    f.distill !== undefined ? Number(f.distill) : Number(f.replay) > 0 ? entry.collapse.distill : 0;
  const distillMax = Number(f['distill-max'] ?? 0);
  const config: GrpoConfig = {
    ...DEFAULT_GRPO,
    task,
    model: modelOf(f),
    seed: Number(f.seed),
    schedule,
    prompts: Number(f.prompts),
    groupSize: Number(f['group-size']),
    lr: Number(f.lr),
    lrDecay: lrDecayOver(
      Number(f.steps),
      f['lr-decay'] === undefined ? entry.collapse.lrDecay : Number(f['lr-decay']),
    ),
    innerEpochs: Number(f['inner-epochs']),
    klCoef: Number(f.kl),
    offPolicyGamma: Number(f['shaping-gamma']),
    distillCoef,
    distillMax,
    // The scenario's extra prompts go with any distillation; an explicit number is checked.
    distillPrompts:
      f['distill-prompts'] !== undefined
        ? Number(f['distill-prompts'])
        : distills({ distillCoef, distillMax })
          ? entry.collapse.distillPrompts
          : 0,
    // The scenario's default gives way to a small --group-size; an explicit value is checked.
    keepFailed:
      f['keep-failed'] === undefined
        ? Math.min(entry.collapse.keepFailed, Number(f['group-size']) - 1)
        : Number(f['keep-failed']),
    evalEvery: Number(f['eval-every']),
    evalSize: Number(f['eval-size']),
    replay: Number(f.replay),
    replayMax: f['replay-max'] === undefined ? entry.collapse.replayMax : Number(f['replay-max']),
    replayLevel: Number(f.replay) > 0 ? schedule[0].level : null,
  };
  // γ = 0 would zero every shaped token's gradient (γp/(p + γ)²): a run that learns nothing from help.
  if (!(config.offPolicyGamma > 0))
    throw new UsageError('--shaping-gamma must be above 0: at 0 shaped tokens teach nothing');
  if (distills(config) && config.replayLevel === null)
    throw new UsageError(
      '--distill and --distill-max learn on the replayed prompts: they need --replay above 0',
    );
  if (config.distillPrompts > 0 && !distills(config))
    throw new UsageError(
      '--distill-prompts are learned by distillation: it needs --distill or --distill-max above 0',
    );
  return config;
}
