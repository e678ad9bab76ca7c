// The supervised ceiling of a collapse scenario: how far the base policy gets at the hard level
// when it is simply shown the reference answers. GRPO with help learns from far less (a reward per
// answer), so this bounds what any intervention can hope for on the same policy.
import { DEFAULT_GRPO } from '../src/rl/config.ts';
import { DEFAULT_CEILING_EASY_SHARE, supervisedCeiling } from '../src/research/ceiling.ts';
import { INIT_FLAG } from './base-checkpoint.ts';
import { loadBasePolicy } from './base-policy.ts';
import { BACKEND_FLAG, MODEL_FLAG, TASK_FLAG, taskOf } from './common-flags.ts';
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
    default: DEFAULT_CEILING_EASY_SHARE,
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
    const { easy, hard } = entry.collapse;
    const model = await loadBasePolicy(f, task);
    const easyShare = Number(f['easy-share']);
    const t0 = performance.now();
    console.log(
      `${task}: supervised at level ${hard} (${easy} for ${easyShare * 100}% of examples)`,
    );
    const opts = {
      seed: Number(f.seed),
      steps: Number(f.steps),
      batch: Number(f.batch),
      lr: Number(f.lr),
      easyShare,
      evalEvery: Number(f['eval-every']),
      evalSize: DEFAULT_GRPO.evalSize,
    };
    await supervisedCeiling(model, entry.training, entry.collapse, opts, (p, loss) => {
      const evals = `eval ${hard}: ${p.hard} eval ${easy}: ${p.easy}`;
      const s = ((performance.now() - t0) / 1000).toFixed(0);
      console.log(
        loss === null
          ? `step 0 ${evals}`
          : `step ${p.step} loss ${loss.toFixed(4)} ${evals} (${s} s)`,
      );
    });
  },
);
