// `npm run table`: every method on every seed as a plan of `npm run experiment` runs, run here in
// a pool of child processes or on Slurm, or collected (finished ones taken back with --reuse),
// then the supervised reference where asked for, the plots and table.md. The steps are in cli/table/.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRun } from '../src/research/results.ts';
import type { GrpoConfig } from '../src/rl/config.ts';
import { runCli } from './flags.ts';
import { TABLE_FLAGS, TABLE_SUMMARY, parseTableArgs } from './table/args.ts';
import { supervisedAtRlBudget } from './table/ceiling.ts';
import { tableMarkdown } from './table/markdown.ts';
import { moduleMethodNames } from './table/method-names.ts';
import { tablePlan } from './table/plan.ts';
import { tablePlots } from './table/plots.ts';
import { runPlan } from './table/run-plan.ts';

await runCli(
  'npm run table --',
  TABLE_SUMMARY,
  TABLE_FLAGS,
  async (a) => {
    mkdirSync(a.dir, { recursive: true });
    const names = await moduleMethodNames(a.methods, a.task);
    const plan = tablePlan(a, names);
    const methods = a.methods.map((m) => names[m] ?? m);
    const t0 = performance.now();
    const done = await runPlan(a, plan);
    if (!done) return;

    const runs = plan.map((r) => parseRun(readFileSync(r.out, 'utf8')));
    const jump = a.schedule[a.schedule.length - 1].step;
    const supervised = a.ceiling
      ? await supervisedAtRlBudget(
          a.task,
          a.init,
          a.entry,
          a.seeds,
          a.steps - jump,
          runs[0]?.config as Partial<GrpoConfig> | null,
          a.dir,
          a.reuse || a.mode.kind === 'collect',
        )
      : null;
    const plots = await tablePlots({ ...a, methods, runs, jump, supervised });
    for (const [file, svg] of Object.entries(plots)) writeFileSync(join(a.dir, file), svg);
    const md = tableMarkdown({
      ...a,
      // A module method may be named by its file.
      reference: names[a.reference] ?? a.reference,
      methods,
      runs,
      supervised,
      teacher: a.entry.family.teacherSolution !== undefined,
      note: {
        total: plan.length,
        ran: done.ran,
        minutes: (performance.now() - t0) / 60000,
        how: done.how,
        dir: a.dir,
      },
    });
    writeFileSync(join(a.dir, 'table.md'), `${md}\n`);
    console.log(md);
  },
  parseTableArgs,
);
