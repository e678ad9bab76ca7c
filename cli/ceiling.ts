// The supervised ceiling of a collapse scenario: how far the base policy gets at the hard level
// when it is simply shown the reference answers. GRPO with help learns from far less (a reward per
// answer), so this bounds what any intervention can hope for on the same policy.
import { loadCheckpoint } from '../src/model/checkpoint.ts';
import { DEFAULT_GRPO } from '../src/rl/config.ts';
import { fixedEvalSet } from '../src/rl/eval-set.ts';
import { greedyAccuracy } from '../src/rl/evaluate.ts';
import { runWarmup } from '../src/rl/warmup.ts';
import { cliBackend } from './backend.ts';
import { INIT_FLAG, readBaseCheckpoint } from './base-checkpoint.ts';
import { BACKEND_FLAG, MODEL_FLAG, TASK_FLAG, modelOf, taskOf } from './common-flags.ts';
import { runCli, type Flag } from './flags.ts';

const FLAGS: Flag[] = [
  TASK_FLAG,
  MODEL_FLAG,
  INIT_FLAG,
  { name: 'seed', kind: 'int', default: 1, min: 0, help: 'seed of the training examples' },
  { name: 'steps', kind: 'int', default: 1500, min: 1, help: 'supervised steps' },
  { name: 'batch', kind: 'int', default: 64, min: 1, help: 'examples per step' },
  {
    name: 'lr',
    kind: 'number',
    // The warm-up's rate: at 1e-3 arithmetic sits on a plateau near 0.1 for 1,500 steps.
    default: 3e-3,
    min: 0,
    help: 'peak learning rate',
  },
  {
    name: 'easy-share',
    kind: 'number',
    default: 0.2,
    min: 0,
    max: 1,
    help: 'share of examples from the easy level (against forgetting)',
  },
  { name: 'eval-every', kind: 'int', default: 250, min: 1, help: 'steps between evals' },
  BACKEND_FLAG,
];

await runCli(
  'npm run ceiling --',
  'Supervised fine-tuning of the base on reference answers at the hard level of the collapse ' +
    'scenario (no hints): greedy eval accuracy on the same fixed eval set as the experiments.',
  FLAGS,
  async (f) => {
    const { task, entry } = taskOf(f);
    const family = entry.training;
    const { easy, hard } = entry.collapse;
    const bytes = readBaseCheckpoint(task, modelOf(f), f.init);
    const evalEvery = Number(f['eval-every']);
    const { model } = loadCheckpoint(await cliBackend(String(f.backend)), bytes);
    const evalHard = fixedEvalSet(family, hard, DEFAULT_GRPO.evalSize);
    const evalEasy = fixedEvalSet(family, easy, DEFAULT_GRPO.evalSize);
    const accuracy = async (set: typeof evalHard) =>
      (await greedyAccuracy(model, family, set)).accuracy;
    const easyShare = Number(f['easy-share']);
    const t0 = performance.now();
    console.log(
      `${task}: supervised at level ${hard} (${easy} for ${easyShare * 100}% of examples)`,
    );
    console.log(
      `step 0 eval ${hard}: ${await accuracy(evalHard)} eval ${easy}: ${await accuracy(evalEasy)}`,
    );
    await runWarmup(
      model,
      family,
      {
        seed: Number(f.seed),
        steps: Number(f.steps),
        batch: Number(f.batch),
        lr: Number(f.lr),
        warmupSteps: 20,
        mix: [
          { level: easy, weight: easyShare, hintRate: 0 },
          { level: hard, weight: 1 - easyShare, hintRate: 0 },
        ],
      },
      async (p) => {
        if (p.step === 0) return; // measured above, before any update
        const s = ((performance.now() - t0) / 1000).toFixed(0);
        console.log(
          `step ${p.step} loss ${p.loss.toFixed(4)} eval ${hard}: ${await accuracy(evalHard)} eval ${easy}: ${await accuracy(evalEasy)} (${s} s)`,
        );
      },
      evalEvery,
    );
  },
);
