import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../../src/engine/cpu/cpu-backend.ts';
import { Transformer } from '../../src/model/transformer.ts';
import { TEST_MODEL_CONFIG } from '../../src/rl/testing/test-model-config.ts';
import { bandit, config } from '../../src/rl/testing/bandit.ts';
import { GrpoTrainer } from '../../src/rl/trainer.ts';
import { runTool } from '../testing/run-tool.ts';
import { ModuleIntervention, ModuleMethodError } from './module-intervention.ts';

const dir = mkdtempSync(join(tmpdir(), 'module-method-'));
// Its .js files are ES modules, as in this repository (and any package that says so).
writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A module file with `code` in it. */
function module(name: string, code: string): string {
  const path = join(dir, name);
  writeFileSync(path, code);
  return path;
}

/** Help for every all-fail group: a retry with the answer's first letter forced. */
const HELP = `({
  group: g.group,
  help: { kind: 'retry', scaffold: 'a', learn: 'as-sampled' },
  note: 'forced a',
})`;

async function refusal(path: string): Promise<ModuleMethodError> {
  const e = await ModuleIntervention.open(path, { seed: 1, task: 'arithmetic' }).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ModuleMethodError);
  return e as ModuleMethodError;
}

describe('a module method', () => {
  it('is refused, saying which, when it does not load, exports the wrong shape or throws at start-up', async () => {
    expect((await refusal(join(dir, 'missing.js'))).fault).toBe('does not load');
    const syntax = await refusal(module('syntax.js', 'export default {'));
    expect(syntax.fault).toBe('does not load');
    expect(syntax.message).toMatch(
      /syntax\.js does not load: Unexpected end of input \(near line 1, column 17\)$/,
    );
    // A TypeScript module's parse error comes from its transform, its place in the message.
    const typed = await refusal(module('syntax.ts', 'export default {'));
    expect(typed.fault).toBe('does not load');
    expect(typed.message).toMatch(/syntax\.ts:1:16: ERROR/);
    const shape = await refusal(module('shape.js', 'export const x = 1; export default 42;'));
    expect(shape.fault).toBe('has the wrong shape');
    expect(shape.message).toMatch(
      /shape\.js has the wrong shape: it exports default, x, and none of it/,
    );
    const made = await refusal(module('made.js', 'export default () => ({ name: "no plan" });'));
    expect(made.message).toMatch(
      /has the wrong shape: default\(…\) made an object without a plan\(\) function/,
    );
    const factory = await refusal(
      module('factory.js', 'export default () => { throw new Error("no config"); };'),
    );
    expect(factory.fault).toBe('threw at start-up');
    expect(factory.message).toMatch(/default\(…\) threw: no config/);
    const top = await refusal(module('top.js', 'throw new Error("at the top");'));
    expect(top.fault).toBe('threw at start-up');
    expect(top.message).toMatch(/at the top/);
  });

  it('is named by its own name, else its export, else its file; a factory gets the run context', async () => {
    const named = await ModuleIntervention.open(
      module('a.js', 'export default { name: "mine", plan: async () => [] };'),
      { seed: 1, task: 'arithmetic' },
    );
    expect(named.name).toBe('mine');
    named.close();
    const byFile = await ModuleIntervention.open(
      module('by-file.ts', 'export default class { async plan() { return []; } }'),
      { seed: 1, task: 'arithmetic' },
    );
    expect(byFile.name).toBe('by-file');
    byFile.close();
    const byExport = await ModuleIntervention.open(
      module(
        'factory.mjs',
        'export function seeded(ctx) { return { name: `seed-${ctx.seed}-${ctx.task}`, plan: async () => [] }; }',
      ),
      { seed: 7, task: 'listlang' },
    );
    expect(byExport.name).toBe('seed-7-listlang');
    byExport.close();
  });

  it('helps in its thread; one that throws, hangs, returns garbage or runs out of memory costs a step its help', async () => {
    const hostile = module(
      'hostile.js',
      `let step = -1;
      export default {
        name: 'hostile',
        async plan(batch, ctx) {
          if (batch.round > 0) return [];
          step = ctx.step;
          if (step === 1) throw new Error('planned to fail');
          if (step === 2) for (;;) {}
          if (step === 3) return 42;
          if (step === 4) return [null, { group: 99, note: 'x' }, { group: 0, help: { kind: 'retry', learn: 'as-sampled' }, note: 3 }];
          if (step === 5) { const hog = []; for (;;) hog.push(new Array(1e6).fill(step)); }
          return batch.groups.map((g) => ${HELP});
        },
      };`,
    );
    const intervention = await ModuleIntervention.open(hostile, { seed: 1, task: 'arithmetic' });
    const model = Transformer.create(new CpuBackend(), TEST_MODEL_CONFIG, 3);
    // The bandit's answers start with a rewarded letter or not: an untrained policy fails some
    // groups whole, which the module helps.
    const c = config({ prompts: 8, groupSize: 2, maxRounds: 1, mentorDeadlineMs: 3000 });
    const trainer = new GrpoTrainer(model.be, model, bandit, c, intervention);
    const steps = [];
    for (let s = 0; s < 7; s++) steps.push(await trainer.trainStep());
    intervention.close();
    const events = steps.map((m) => m.events.join(' | '));
    expect(steps[0].interventions.length).toBeGreaterThan(0);
    expect(steps[0].interventions[0].note).toBe('forced a');
    expect(events[0]).toBe('');
    expect(events[1]).toMatch(
      /^hostile plan failed at step 1: planned to fail; going on without it/,
    );
    expect(events[2]).toMatch(/^hostile plan failed at step 2: no answer within 3000 ms/);
    expect(events[3]).toMatch(/hostile plan returned number, not a list of reprompts/);
    expect(events[4]).toMatch(/a reprompt that is not an object \(null\) rejected/);
    expect(events[4]).toMatch(/reprompt for group 99 rejected: no such group in this step/);
    expect(events[4]).toMatch(/reprompt for group 0 rejected: its note is not text/);
    expect(events[5]).toMatch(/^hostile plan failed at step 5: its thread (failed|ended)/);
    // After every fault the run goes on, and the restarted module helps again.
    expect(events[6]).toBe('');
    expect(steps[6].interventions.length).toBeGreaterThan(0);
    expect(intervention.restarts).toBe(3);
  }, 60_000);

  it("is refused by npm run experiment and npm run table alike when it takes a built-in method's name", () => {
    const path = module('impostor.js', 'export default { name: "mentor", plan: async () => [] };');
    const small = ['--task', 'arithmetic', '--steps', '1'];
    const why = `${path} is named "mentor", a built-in method (`;
    const experiment = runTool('experiment', ...small, '--method', path);
    expect(experiment.code).not.toBe(0);
    expect(experiment.stderr).toContain(`--method: ${why}`);
    expect(experiment.stdout).not.toMatch(/"method":"mentor"/);
    const table = runTool('table', ...small, '--seeds', '1', '--methods', `none,${path}`);
    expect(table.code).not.toBe(0);
    expect(table.stderr).toContain(`--methods: ${why}`);
  }, 60_000);

  it('runs in npm run experiment and beside a built-in method in npm run table', () => {
    const path = module(
      'helper.js',
      `export default { name: 'first-letter', async plan(batch) {
        return batch.round > 0 ? [] : batch.groups.filter((g) => g.attempts.every((a) => a.reward === 0)).map((g) => ({
          group: g.group, help: { kind: 'retry', scaffold: g.problem.answer[0], learn: 'as-sampled' }, note: 'first digit',
        }));
      } };`,
    );
    const out = join(dir, 'table');
    const flags = ['--task', 'arithmetic', '--steps', '3', '--seeds', '1', '--out-dir', out];
    const extra = '--schedule 0:4 --prompts 4 --eval-every 3 --eval-size 8';
    const r = runTool('table', ...flags, '--methods', `none,${path}`, `--extra=${extra}`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\| none \|/);
    expect(r.stdout).toMatch(/\| first-letter \|/);
    const bad = runTool('table', ...flags, '--methods', `none,${join(dir, 'syntax.js')}`);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/syntax\.js does not load/);
  }, 120_000);
});
