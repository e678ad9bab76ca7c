import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadCheckpoint, saveCheckpoint } from '../src/model/checkpoint.ts';
import { parameterCount } from '../src/model/param-spec.ts';
import { DEFAULT_GRPO } from '../src/rl/config.ts';
import { gateChance, gateLine } from '../src/rl/bases/gate-chance.ts';
import { gateVerdict } from '../src/rl/bases/gate-verdict.ts';
import { literacyLevels, literacyMarkdown, literacyReport } from '../src/rl/bases/literacy.ts';
import { DEFAULT_INSTRUCTOR } from '../src/interventions/mentor/instructor.ts';
import { warmupRecipe } from '../src/rl/bases/recipes.ts';
import { freshPolicy, restartSpec, runWarmup } from '../src/rl/warmup.ts';
import { cliBackend } from './backend.ts';
import { checkpointSha256, readBaseCheckpoint } from './base-checkpoint.ts';
import {
  BACKEND_FLAG,
  MODEL_FLAG,
  TASK_FLAG,
  THREADS_FLAG,
  modelOf,
  taskOf,
} from './common-flags.ts';
import { UsageError, runCli, type Flag } from './flags.ts';
import { parseLevelList, parseMix, resolveCritique } from './warmup-mix.ts';

/** Problems the report's gate chance averages over: it is heavy-tailed, a few problems hold most of it. */
const GATE_PROBLEMS = 1000;

const FLAGS: Flag[] = [
  TASK_FLAG,
  MODEL_FLAG,
  {
    name: 'seed',
    kind: 'int',
    default: 1,
    min: 0,
    help: 'seed of the initial weights and the data (with --init, of the data only)',
  },
  { name: 'steps', kind: 'int', min: 1, help: "override the recipe's number of steps" },
  { name: 'lr', kind: 'number', min: 0, help: "override the recipe's peak learning rate" },
  {
    name: 'init',
    kind: 'string',
    help: "one cycle from this checkpoint instead of fresh weights (its architecture; a new warm-up and cosine schedule; the recipe's restarts are not run)",
  },
  {
    name: 'places',
    kind: 'int',
    min: 0,
    help: "highest digit place of a digit-place embedding (0 = none; default the recipe's)",
  },
  { name: 'no-rope', kind: 'bool', help: 'no positional encoding (NoPE)' },
  { name: 'rope', kind: 'bool', help: 'rotary positions (RoPE), where the recipe has none' },
  {
    name: 'layers',
    kind: 'int',
    min: 1,
    max: 64,
    help: "transformer blocks (default the recipe's, else the model size's)",
  },
  {
    name: 'mix',
    kind: 'string',
    help: 'override the recipe\'s levels: "level:weight:hintRate[:op],…", e.g. "1:1:0.3,2:1:0.3,3:1:0.3,4:0.01:0.3:*" (op, arithmetic only: + - *; default the task\'s)',
  },
  {
    name: 'length-share',
    kind: 'number',
    min: 0,
    max: 1,
    help: 'share of warm-up hints that state only the length (default: every kind equally often)',
  },
  {
    name: 'critique-share',
    kind: 'number',
    min: 0,
    max: 1,
    help: "share of warm-up hints that critique a near miss, marked within the instructor's reveal cap (default the recipe's: listlang 0.2, arithmetic none)",
  },
  {
    name: 'critique-min-mark',
    kind: 'int',
    min: 1,
    help: "only critiques whose mark shows at least this many right characters (default the recipe's)",
  },
  {
    name: 'critique-levels',
    kind: 'string',
    help: 'critiques only at these levels, e.g. "1" or "1,2" (default every level)',
  },
  {
    name: 'answer-only',
    kind: 'bool',
    help: "teach every level's reference answer alone, without the working the family writes (worked): the base that answers outright",
  },
  {
    name: 'first-step-share',
    kind: 'number',
    min: 0,
    max: 1,
    help: "share of warm-up hints that give the answer's first character, even the whole of a one-character answer (default none)",
  },
  BACKEND_FLAG,
  THREADS_FLAG,
  {
    name: 'report-size',
    kind: 'int',
    default: 200,
    min: 1,
    help: 'problems per cell of the literacy table',
  },
  {
    name: 'out',
    kind: 'string',
    help: 'checkpoint path (default public/checkpoints/<task>-<model>.safetensors)',
  },
];

await runCli(
  'npm run pretrain --',
  'Supervised warm-up with random hints; writes the base checkpoint and a JSON report (hint literacy per level, the gate chance at the hard level).',
  FLAGS,
  async (f) => {
    const { task, entry } = taskOf(f);
    const size = modelOf(f);
    const out = String(f.out ?? `public/checkpoints/${task}-${size}.safetensors`);
    const family = entry.training;
    if (f.rope && f['no-rope']) throw new UsageError('--rope and --no-rope contradict each other');
    const base = warmupRecipe(task, entry);
    const critiqueLevels =
      f['critique-levels'] === undefined
        ? undefined
        : parseLevelList(String(f['critique-levels']), family.levels);
    if (
      f.init !== undefined &&
      (f.places !== undefined || f.rope || f['no-rope'] || f.layers !== undefined)
    ) {
      throw new UsageError(
        '--init takes the architecture from the checkpoint: drop --places, --rope, --no-rope and --layers',
      );
    }
    const initBytes = f.init === undefined ? undefined : readBaseCheckpoint(task, size, f.init);
    const policy = {
      maxPlace: f.places === undefined ? base.policy.maxPlace : Number(f.places),
      rope: f.rope ? true : f['no-rope'] ? false : base.policy.rope,
      layers: f.layers === undefined ? base.policy.layers : Number(f.layers),
    };
    // --init continues a checkpoint for one cycle: the recipe's restarts are not run, and the
    // architecture is the checkpoint's (its config and SHA-256), not the recipe's policy.
    const { restarts, policy: _recipePolicy, ...first } = base;
    const critique = resolveCritique(
      first.critique,
      {
        share: f['critique-share'] === undefined ? undefined : Number(f['critique-share']),
        minMark: f['critique-min-mark'] === undefined ? undefined : Number(f['critique-min-mark']),
        levels: critiqueLevels,
      },
      DEFAULT_INSTRUCTOR.maxReveal,
    );
    const cycleRestarts = initBytes ? [] : (restarts ?? []);
    const recipe = {
      ...(initBytes ? {} : { policy }),
      ...first,
      ...(f.steps ? { steps: Number(f.steps) } : {}),
      ...(f.lr !== undefined ? { lr: Number(f.lr) } : {}),
      ...(f['length-share'] !== undefined ? { lengthHintShare: Number(f['length-share']) } : {}),
      ...(f['first-step-share'] !== undefined
        ? { firstStepShare: Number(f['first-step-share']) }
        : {}),
      ...(critique ? { critique } : {}),
      ...(f.mix !== undefined
        ? { mix: parseMix(String(f.mix), { id: task, levels: family.levels }) }
        : {}),
      ...(initBytes ? { init: { path: String(f.init), sha256: checkpointSha256(initBytes) } } : {}),
      ...(cycleRestarts.length ? { restarts: cycleRestarts } : {}),
    };
    if (f['answer-only'] && !family.teacherSolution)
      throw new UsageError(
        `--answer-only: ${task} writes no working, its answers are already alone`,
      );
    const spec = {
      ...recipe,
      ...(f['answer-only'] ? { mix: recipe.mix.map((m) => ({ ...m, answerOnly: true })) } : {}),
      seed: Number(f.seed),
    };
    const be = await cliBackend(String(f.backend), Number(f.threads));
    const t0 = performance.now();
    const model = initBytes
      ? loadCheckpoint(be, initBytes).model
      : freshPolicy(be, size, spec.seed, policy);
    console.error(
      `${task} ${size} (${parameterCount(model.config)} parameters), seed ${spec.seed}, ${spec.steps} steps of ${spec.batch} on ${be.name}`,
    );
    let finalLoss = NaN;
    const cycles = [spec, ...cycleRestarts.map((r) => restartSpec(spec, r))];
    for (const [c, cycle] of cycles.entries()) {
      await runWarmup(model, family, cycle, (p) => {
        finalLoss = p.loss;
        if (p.step % 250 === 0 || p.step === p.steps - 1) {
          console.error(
            `${c > 0 ? `restart ${c} ` : ''}step ${p.step} loss ${p.loss.toFixed(4)} lr ${p.lr.toExponential(2)} ${((performance.now() - t0) / 1000).toFixed(0)} s`,
          );
        }
      });
    }
    const trainS = (performance.now() - t0) / 1000;
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(
      out,
      await saveCheckpoint(model, {
        task,
        model: size,
        seed: String(spec.seed),
        recipe: JSON.stringify(recipe),
      }),
    );
    const levels = literacyLevels(family, entry.collapse.hard);
    const literacy = await literacyReport(
      model,
      family,
      levels,
      Number(f['report-size']),
      DEFAULT_INSTRUCTOR.maxReveal,
    );
    const gate = await gateChance(model, family, entry.collapse.hard, GATE_PROBLEMS, DEFAULT_GRPO);
    const report = {
      task,
      model: size,
      seed: spec.seed,
      parameters: parameterCount(model.config),
      recipe,
      final_loss: finalLoss,
      train_s: trainS,
      wall_s: (performance.now() - t0) / 1000,
      collapse: entry.collapse,
      literacy,
      gate,
    };
    const reportPath = out.replace(/\.safetensors$/, '') + '.json';
    writeFileSync(reportPath, `${JSON.stringify(report, null, 2)}\n`);
    console.error(`wrote ${out} and ${reportPath}`);
    console.log(literacyMarkdown(literacy));
    console.log(gateLine(gate));
    const verdict = gateVerdict(literacy, gate);
    console.log(`${verdict.summary}. ${verdict.advice}`);
  },
);
