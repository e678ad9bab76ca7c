// `npm run literacy -- --task T [--init FILE] [--problems N] [--json]`: a base policy's hint
// literacy — greedy accuracy per level with each kind of help, and with a critique of its own
// failures — as the pretrain report has it, for any checkpoint.
import { DEFAULT_INSTRUCTOR } from '../src/interventions/mentor/instructor.ts';
import { literacyLevels, literacyMarkdown, literacyReport } from '../src/rl/bases/literacy.ts';
import { INIT_FLAG } from './base-checkpoint.ts';
import { loadBasePolicy } from './base-policy.ts';
import { BACKEND_FLAG, MODEL_FLAG, TASK_FLAG, taskOf } from './common-flags.ts';
import { runCli, type Flag } from './flags.ts';

const FLAGS: Flag[] = [
  TASK_FLAG,
  MODEL_FLAG,
  INIT_FLAG,
  { name: 'problems', kind: 'int', default: 200, min: 1, help: 'seeded problems per level' },
  BACKEND_FLAG,
  { name: 'json', kind: 'bool', help: 'print the rows as JSON' },
];

await runCli(
  'npm run literacy --',
  "A base policy's greedy accuracy per level, unhinted, with every kind of help, and with a critique of its own wrong answers.",
  FLAGS,
  async (f) => {
    const { task, entry } = taskOf(f);
    const family = entry.training;
    const model = await loadBasePolicy(f, task);
    const levels = literacyLevels(family, entry.collapse.hard);
    const rows = await literacyReport(
      model,
      family,
      levels,
      Number(f.problems),
      DEFAULT_INSTRUCTOR.maxReveal,
    );
    console.log(f.json ? JSON.stringify(rows) : literacyMarkdown(rows));
  },
);
