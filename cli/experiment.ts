import {
  appendFileSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadCheckpoint, saveCheckpoint } from '../src/model/checkpoint.ts';
import { DEFAULT_MENTOR } from '../src/interventions/mentor/mentor.ts';
import type { MethodContext } from '../src/interventions/host/find-intervention.ts';
import { createIntervention, isMethod, METHODS } from '../src/interventions/methods.ts';
import { summarise } from '../src/research/summary.ts';
import { formatSchedule } from '../src/rl/level-schedule.ts';
import { buildRun } from '../src/run/build-run.ts';
import { methodRunsOn, runConfig } from '../src/run/run-spec.ts';
import { cliBackend } from './backend.ts';
import {
  baseCheckpointPath,
  baseTaskWarning,
  checkpointSha256,
  readBaseCheckpoint,
} from './base-checkpoint.ts';
import { taskOf } from './common-flags.ts';
import { isTaskPath } from './task-module/load-task.ts';
import { EXPERIMENT_FLAGS, methodOf, runSpecOf } from './experiment-config.ts';
import { UsageError, runCli } from './flags.ts';
import { refuseBuiltInName } from './module-method/built-in-name.ts';
import { isModulePath, ModuleIntervention } from './module-method/module-intervention.ts';
import { partialPath } from './out-file.ts';

/** The module method at `path`, refused (its thread ended) where it takes a built-in name. */
async function openModule(path: string, context: MethodContext): Promise<ModuleIntervention> {
  const module = await ModuleIntervention.open(path, context);
  try {
    refuseBuiltInName('--method', path, module.name);
  } catch (e) {
    module.close();
    throw e;
  }
  return module;
}

await runCli(
  'npm run experiment --',
  'GRPO on a shipped base policy, with an intervention; one JSON line per step, then a summary.',
  EXPERIMENT_FLAGS,
  async (f) => {
    const { task, flag: taskFlag } = taskOf(f);
    const spec = runSpecOf(f);
    const config = runConfig(spec);
    const { schedule } = spec;
    const bytes = readBaseCheckpoint(task, config.model, f.init);
    if (f.save) {
      const save = resolve(String(f.save));
      if (save === resolve(baseCheckpointPath(task, config.model, f.init)))
        throw new UsageError(`--save ${f.save} would overwrite the checkpoint the run starts from`);
      // Made now, so a path that cannot be written fails before the run rather than after it.
      mkdirSync(dirname(save), { recursive: true });
    }
    const be = await cliBackend(String(f.backend), Number(f.threads));
    const { model, metadata } = loadCheckpoint(be, bytes);
    const warning = baseTaskWarning(metadata, task);
    if (warning)
      console.error(`warning: ${baseCheckpointPath(task, config.model, f.init)}: ${warning}`);
    const { method, label } = methodOf(f);
    const fromModule = isModulePath(method);
    if (!fromModule && !isMethod(method))
      throw new UsageError(
        `--method ${method} is neither a method (${METHODS.join(', ')}) nor a module file (.js, .ts)`,
      );
    if (!methodRunsOn(method, task))
      throw new UsageError(
        `--method ${method}: its lessons are made of working, which ${task} does not write`,
      );
    const intervention = fromModule
      ? await openModule(method, { seed: config.seed, task })
      : createIntervention(method, config.seed, DEFAULT_MENTOR, spec.teacher, label);
    const trainer = buildRun(spec, {
      backend: be,
      policy: model,
      intervention,
      baseCheckpoint: bytes,
    });
    // Lines go out synchronously: the training loop keeps the event loop busy, so a stream
    // would hold everything until the run ends (and lose it on a crash).
    const outPath = f.out ? String(f.out) : null;
    // Written under partialPath(out) and renamed when complete; an older run's file goes now, as
    // it is to be replaced, so nothing at --out reads as finished while this one is not.
    const partial = outPath ? partialPath(outPath) : null;
    if (outPath && partial) {
      rmSync(outPath, { force: true });
      writeFileSync(partial, '');
    }
    const write = (obj: unknown) => {
      const line = `${JSON.stringify(obj)}\n`;
      if (partial) appendFileSync(partial, line);
      else process.stdout.write(line);
    };
    const t0 = performance.now();
    const rows = [];
    for (let s = 0; s < Number(f.steps); s++) {
      const m = await trainer.trainStep();
      rows.push(m);
      write(m);
      // What went wrong with the help (a module method's faults among it) is worth seeing live.
      for (const e of m.events) console.error(`step ${m.step}: ${e}`);
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
        config,
        base_sha256: checkpointSha256(bytes),
        // A module method's code, so a table reusing the run can tell it ran this code.
        ...(fromModule ? { method_sha256: checkpointSha256(readFileSync(method)) } : {}),
        // A task module's code likewise.
        ...(isTaskPath(taskFlag) ? { task_sha256: checkpointSha256(readFileSync(taskFlag)) } : {}),
        ...summarise(rows, schedule, formatSchedule(schedule), (performance.now() - t0) / 1000),
      },
    });
    if (outPath && partial) renameSync(partial, outPath);
    if (intervention instanceof ModuleIntervention) intervention.close();
  },
);
