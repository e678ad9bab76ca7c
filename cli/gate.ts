// `npm run gate -- --task T [--init FILE] [--level N] [--problems N] [--json]`: how long plain
// GRPO waits, frozen, for its first success by chance at a level of a base policy.
import { DEFAULT_GRPO } from '../src/rl/config.ts';
import { gateChance, gateLine } from '../src/rl/bases/gate-chance.ts';
import { INIT_FLAG } from './base-checkpoint.ts';
import { loadBasePolicy } from './base-policy.ts';
import { BACKEND_FLAG, MODEL_FLAG, TASK_FLAG, taskOf } from './common-flags.ts';
import { UsageError, runCli, type Flag } from './flags.ts';

const FLAGS: Flag[] = [
  TASK_FLAG,
  MODEL_FLAG,
  INIT_FLAG,
  {
    name: 'level',
    kind: 'int',
    min: 1,
    help: "the level (default the collapse scenario's hard one)",
  },
  { name: 'problems', kind: 'int', default: 1000, min: 1, help: 'seeded problems to average over' },
  BACKEND_FLAG,
  { name: 'json', kind: 'bool', help: 'print the figures as JSON' },
];

await runCli(
  'npm run gate --',
  "The unhinted chance that a base policy samples a level's reference answer, and the expected wait for plain GRPO's first success it implies.",
  FLAGS,
  async (f) => {
    const { task, entry } = taskOf(f);
    const family = entry.training;
    const level = f.level === undefined ? entry.collapse.hard : Number(f.level);
    if (level < family.levels.min || level > family.levels.max) {
      throw new UsageError(
        `--level ${level} is outside ${family.levels.min}..${family.levels.max} for ${task}`,
      );
    }
    const model = await loadBasePolicy(f, task);
    const gate = await gateChance(model, family, level, Number(f.problems), DEFAULT_GRPO);
    console.log(f.json ? JSON.stringify(gate) : gateLine(gate));
  },
);
