import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadCheckpoint, saveCheckpoint } from '../src/model/checkpoint.ts';
import type { Channel } from '../src/mentor/instructor.ts';
import { DEFAULT_MENTOR } from '../src/mentor/mentor.ts';
import { CritiqueRefinement } from '../src/mentor/baselines/refine.ts';
import { DEFAULT_INSTRUCTOR, type InstructorOptions } from '../src/mentor/instructor.ts';
import { METHODS, createIntervention } from '../src/mentor/methods.ts';
import { summarise } from '../src/research/summary.ts';
import { DEFAULT_GRPO, distills, type GrpoConfig } from '../src/rl/config.ts';
import { collapseSchedule, formatSchedule, parseSchedule } from '../src/rl/level-schedule.ts';
import { GrpoTrainer } from '../src/rl/trainer.ts';
import { FAMILY_IDS, familyEntry, type CollapseScenario } from '../src/tasks/index.ts';
import { cliBackend } from './backend.ts';
import {
  INIT_FLAG,
  baseCheckpointPath,
  checkpointSha256,
  readBaseCheckpoint,
} from './base-checkpoint.ts';
import {
  BACKEND_FLAG,
  MODEL_FLAG,
  SCHEDULE_FLAG,
  TASK_FLAG,
  modelOf,
  taskOf,
} from './common-flags.ts';
import { UsageError, runCli, type Flag } from './flags.ts';

/** A collapse-scenario setting of every family, for a flag's help: "arithmetic 0, listlang 4". */
function scenarioDefaults(field: keyof CollapseScenario): string {
  return FAMILY_IDS.map((id) => `${id} ${familyEntry(id).collapse[field]}`).join(', ');
}

const FLAGS: Flag[] = [
  TASK_FLAG,
  { name: 'method', kind: 'choice', choices: METHODS, default: 'none', help: 'intervention' },
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
    name: 'inner-epochs',
    kind: 'int',
    default: DEFAULT_GRPO.innerEpochs,
    min: 1,
    help: 'passes per batch (>1: PPO clipping)',
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
    help: `weight of the log-loss on the base's greedy answers to the replayed prompts (distillation to the base, every method; needs replay; default the task's collapse scenario's, ${scenarioDefaults('distill')}, and 0 with --replay 0)`,
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

/** --mentor-shaped's value as the instructor's option ('off': importance-weighted). */
function shapedLossOf(value: string): InstructorOptions['shapedLoss'] {
  return value === 'whole' || value === 'sampled' ? value : undefined;
}

await runCli(
  'npm run experiment --',
  'GRPO on a shipped base policy, with an intervention; one JSON line per step, then a summary.',
  FLAGS,
  async (f) => {
    const { task, entry } = taskOf(f);
    const family = entry.training;
    let schedule;
    try {
      schedule = f.schedule
        ? parseSchedule(String(f.schedule), family.levels)
        : collapseSchedule(entry.collapse).slice(0, f.scenario === 'easy' ? 1 : undefined);
    } catch (e) {
      throw new UsageError(`--schedule: ${(e as Error).message}`);
    }
    // The scenario's distillation lives on its replay: none without it; an explicit one is checked.
    const distillCoef =
      f.distill !== undefined
        ? Number(f.distill)
        : Number(f.replay) > 0
          ? entry.collapse.distill
          : 0;
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
      innerEpochs: Number(f['inner-epochs']),
      klCoef: Number(f.kl),
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
    if (distills(config) && config.replayLevel === null)
      throw new UsageError(
        '--distill and --distill-max learn on the replayed prompts: they need --replay above 0',
      );
    if (config.distillPrompts > 0 && !distills(config))
      throw new UsageError(
        '--distill-prompts are learned by distillation: it needs --distill above 0',
      );
    const bytes = readBaseCheckpoint(task, config.model, f.init);
    if (f.save) {
      const save = resolve(String(f.save));
      if (save === resolve(baseCheckpointPath(task, config.model, f.init)))
        throw new UsageError(`--save ${f.save} would overwrite the checkpoint the run starts from`);
      // Made now, so a path that cannot be written fails before the run rather than after it.
      mkdirSync(dirname(save), { recursive: true });
    }
    const be = await cliBackend(String(f.backend));
    const { model } = loadCheckpoint(be, bytes);
    const base =
      config.klCoef > 0 || distills(config) ? loadCheckpoint(be, bytes).model : undefined;
    const channel = f['mentor-channel'] as Channel | undefined;
    if (f['mentor-shaped'] && f.method !== 'mentor')
      throw new UsageError('--mentor-shaped is a variant of --method mentor');
    if (f['mentor-remind'] && f.method !== 'mentor')
      throw new UsageError('--mentor-remind is a variant of --method mentor');
    if (f['refine-from-mark'] && f.method !== 'refine')
      throw new UsageError('--refine-from-mark is a variant of --method refine');
    const intervention = f['refine-from-mark']
      ? new CritiqueRefinement(DEFAULT_INSTRUCTOR.maxReveal, true)
      : createIntervention(String(f.method), config.seed, {
          ...DEFAULT_MENTOR,
          ...(f['mentor-remind'] === undefined ? {} : { remind: f['mentor-remind'] === 'on' }),
          instructor: {
            ...DEFAULT_MENTOR.instructor,
            ...(channel ? { channel } : {}),
            ...(f['mentor-shaped'] === undefined
              ? {}
              : { shapedLoss: shapedLossOf(String(f['mentor-shaped'])) }),
          },
        });
    const trainer = new GrpoTrainer(be, model, family, config, intervention, { base });
    // Lines go out synchronously: the training loop keeps the event loop busy, so a stream
    // would hold everything until the run ends (and lose it on a crash).
    const outPath = f.out ? String(f.out) : null;
    if (outPath) writeFileSync(outPath, '');
    const write = (obj: unknown) => {
      const line = `${JSON.stringify(obj)}\n`;
      if (outPath) appendFileSync(outPath, line);
      else process.stdout.write(line);
    };
    const t0 = performance.now();
    const rows = [];
    for (let s = 0; s < Number(f.steps); s++) {
      const m = await trainer.trainStep();
      rows.push(m);
      write(m);
      if (f.out && m.eval_accuracy !== undefined) {
        console.error(
          `step ${m.step} level ${m.level} eval ${m.eval_accuracy.toFixed(3)} all_fail ${m.all_fail_frac.toFixed(2)} hinted ${m.hinted_frac.toFixed(2)}`,
        );
      }
    }
    if (f.save) {
      writeFileSync(
        String(f.save),
        await saveCheckpoint(model, {
          task,
          model: config.model,
          method: intervention.name,
          seed: String(config.seed),
          step: String(f.steps),
          schedule: formatSchedule(schedule),
          base_sha256: checkpointSha256(bytes),
        }),
      );
    }
    write({
      summary: {
        method: intervention.name,
        seed: config.seed,
        // What it ran with, so a table reusing the run can tell it is the one it would run.
        args: process.argv.slice(2),
        ...summarise(rows, schedule, formatSchedule(schedule), (performance.now() - t0) / 1000),
      },
    });
  },
);
