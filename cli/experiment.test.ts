import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../src/engine/cpu/cpu-backend.ts';
import { loadCheckpoint, saveCheckpoint } from '../src/model/checkpoint.ts';
import { DEFAULT_GRPO } from '../src/rl/config.ts';
import { lrDecayOver } from '../src/rl/settings.ts';
import { familyEntry } from '../src/tasks/index.ts';
import { EXPERIMENT_FLAGS, experimentConfig, methodOf } from './experiment-config.ts';
import { parseFlags } from './flags.ts';
import { runTool, stepLines } from './testing/run-tool.ts';

const dir = mkdtempSync(join(tmpdir(), 'experiment-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BASE = 'public/checkpoints/arithmetic-tiny.safetensors';

function experiment(...args: string[]) {
  return runTool('experiment', ...args);
}

async function weights(path: string) {
  const { model, metadata } = loadCheckpoint(new CpuBackend(), readFileSync(path));
  const tensors = new Map((await model.params.toTensors()).map((t) => [t.name, t.data]));
  return { tensors, metadata };
}

describe('npm run experiment --save', () => {
  it('writes the policy the run ends with, with what made it, and --init starts from it', async () => {
    const quiet = ['--task', 'arithmetic', '--eval-every', '100', '--prompts', '2', '--seed', '3'];
    // At 4 digits every unhelped group fails; the mentor's rescues give the steps a gradient.
    const trained = join(dir, 'trained.safetensors');
    const r = experiment(...quiet, '--schedule', '0:4', '--method', 'mentor', '--steps', '3');
    expect(r.code, r.stderr).toBe(0);
    const withSave = experiment(
      ...quiet,
      '--schedule',
      '0:4',
      '--method',
      'mentor',
      '--steps',
      '3',
      '--save',
      trained,
    );
    expect(withSave.code, withSave.stderr).toBe(0);
    // Saving changes nothing of the run itself.
    expect(stepLines(withSave.stdout)).toEqual(stepLines(r.stdout));

    const base = await weights(BASE);
    const saved = await weights(trained);
    expect(saved.metadata).toMatchObject({
      task: 'arithmetic',
      model: 'tiny',
      method: 'mentor',
      seed: '3',
      step: '3',
      schedule: '0:4',
      base_sha256: createHash('sha256').update(readFileSync(BASE)).digest('hex'),
    });
    expect([...saved.tensors.keys()]).toEqual([...base.tensors.keys()]);
    const moved = [...saved.tensors].filter(
      ([name, data]) => !data.every((v, i) => v === base.tensors.get(name)![i]),
    );
    expect(moved.length).toBeGreaterThan(0);

    // A run from the saved policy at 1 digit, where nothing fails, saves it back unchanged.
    const again = join(dir, 'again.safetensors');
    const resumed = experiment(
      ...quiet,
      '--init',
      trained,
      '--schedule',
      '0:1',
      '--steps',
      '1',
      '--save',
      again,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const back = await weights(again);
    expect(back.metadata.base_sha256).toBe(
      createHash('sha256').update(readFileSync(trained)).digest('hex'),
    );
    for (const [name, data] of saved.tensors) expect(back.tensors.get(name)).toEqual(data);
  }, 120_000);

  it('refuses to overwrite the checkpoint the run starts from, before running', () => {
    const before = readFileSync(BASE);
    const r = experiment('--task', 'arithmetic', '--steps', '1', '--save', BASE);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/would overwrite the checkpoint the run starts from/);
    expect(r.stdout).toBe('');
    expect(readFileSync(BASE).equals(before)).toBe(true);
  });
});

describe('npm run experiment --init', () => {
  it('warns, as the page does, where the base was warmed up for another task module', async () => {
    const { model } = loadCheckpoint(new CpuBackend(), readFileSync(BASE));
    const reverse = join(dir, 'reverse-base.safetensors');
    writeFileSync(reverse, await saveCheckpoint(model, { task: 'reverse', model: 'tiny' }));
    const small = ['--steps', '1', '--prompts', '2', '--eval-every', '100', '--method', 'none'];
    const r = experiment('--task', 'docs/examples/sort-letters.js', '--init', reverse, ...small);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `warning: ${reverse}: The checked task is "sort-letters", not "reverse": the base may not read its problems.`,
    );
    const same = experiment('--task', 'docs/examples/reverse.js', '--init', reverse, ...small);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).not.toContain('warning:');
  }, 120_000);
});

describe('npm run experiment --distill', () => {
  // One op, then two: from step 2 one of the four prompts is a replayed one-op problem.
  const run = (...args: string[]) =>
    experiment(
      ...['--task', 'listlang', '--schedule', '0:1,2:2', '--steps', '4', '--prompts', '4'],
      ...['--eval-every', '100', '--replay', '0.25', ...args],
    );

  it("defaults to the task's collapse scenario, and is off without replay", () => {
    const { distill, distillPrompts } = familyEntry('listlang').collapse;
    const byDefault = run();
    const asFlag = run('--distill', String(distill), '--distill-prompts', String(distillPrompts));
    const off = run('--distill', '0');
    for (const r of [byDefault, asFlag, off]) expect(r.code, r.stderr).toBe(0);
    expect(stepLines(byDefault.stdout)).toEqual(stepLines(asFlag.stdout));
    // Steps 0–1 replay nothing, so distillation first moves the loss at step 2.
    const loss = (out: string) => stepLines(out).map((l) => l.loss);
    expect(loss(byDefault.stdout).slice(0, 2)).toEqual(loss(off.stdout).slice(0, 2));
    expect(loss(byDefault.stdout)[2]).not.toBe(loss(off.stdout)[2]);
    expect(run('--replay', '0').code).toBe(0);
    for (const flag of ['--distill', '--distill-max']) {
      const refused = run('--replay', '0', flag, '0.3');
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(
        /--distill and --distill-max learn on the replayed prompts: they need --replay above 0/,
      );
    }
  }, 120_000);

  it('distils on extra easy prompts with --distill-prompts, and only with distillation', () => {
    const wide = run('--distill-prompts', '4');
    const plain = run('--distill-prompts', '0');
    for (const r of [wide, plain]) expect(r.code, r.stderr).toBe(0);
    const loss = (out: string) => stepLines(out).map((l) => l.loss);
    expect(loss(wide.stdout).slice(0, 2)).toEqual(loss(plain.stdout).slice(0, 2));
    expect(loss(wide.stdout)[2]).not.toBe(loss(plain.stdout)[2]);
    const refused = run('--distill', '0', '--distill-prompts', '4');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/--distill-prompts are learned by distillation/);
  }, 120_000);
});

describe('npm run experiment --lr-decay', () => {
  const resolved = (...args: string[]) =>
    experimentConfig(parseFlags(['--steps', '1000', ...args], EXPERIMENT_FLAGS)).lrDecay;

  it("anneals the last share of the run's steps, by default the task's collapse scenario's", () => {
    const share = familyEntry('listlang').collapse.lrDecay;
    expect(share).toBeGreaterThan(0);
    expect(resolved('--task', 'listlang')).toEqual({ from: 1000 - 1000 * share, to: 1000 });
    expect(resolved('--task', 'listlang', '--lr-decay', '0')).toBeNull();
    expect(resolved('--task', 'arithmetic')).toBeNull();
    expect(resolved('--task', 'arithmetic', '--lr-decay', '0.25')).toEqual({ from: 750, to: 1000 });
    // At least the last step anneals, however short the run.
    expect(lrDecayOver(3, 0.1)).toEqual({ from: 2, to: 3 });
    expect(() => resolved('--lr-decay', '1')).toThrow(/--lr-decay/);
  });
});

describe('npm run experiment --shaping-gamma', () => {
  const gamma = (...args: string[]) =>
    experimentConfig(parseFlags(args, EXPERIMENT_FLAGS)).offPolicyGamma;

  it("sets γ of every shaped token's f(p) = p/(p + γ), LUFFY's 0.1 by default", () => {
    expect(gamma()).toBe(DEFAULT_GRPO.offPolicyGamma);
    expect(DEFAULT_GRPO.offPolicyGamma).toBe(0.1);
    expect(gamma('--shaping-gamma', '0.01')).toBe(0.01);
    expect(() => gamma('--shaping-gamma', '0')).toThrow(/--shaping-gamma must be above 0/);
    expect(() => gamma('--shaping-gamma', '-1')).toThrow(/--shaping-gamma/);
  });
});

describe('npm run experiment --method offpolicy-full', () => {
  const config = (...args: string[]) => experimentConfig(parseFlags(args, EXPERIMENT_FLAGS));

  it("runs LUFFY as published: its advantages are not divided by the group's std", () => {
    expect(config('--method', 'offpolicy-full').scaleRewards).toBe(false);
    expect(config('--method', 'offpolicy').scaleRewards).toBe(true);
    expect(config('--method', 'mentor').scaleRewards).toBe(true);
  });
});

describe('npm run experiment --eval-dense-every', () => {
  const config = (...args: string[]) => experimentConfig(parseFlags(args, EXPERIMENT_FLAGS));

  it('adds evals after a level change only when asked, over 400 steps by default', () => {
    expect(config()).toMatchObject({ evalDenseEvery: 0, evalDenseSteps: 400 });
    expect(config('--eval-dense-every', '5', '--eval-dense-steps', '300')).toMatchObject({
      evalDenseEvery: 5,
      evalDenseSteps: 300,
    });
    expect(() => config('--eval-dense-steps', '0')).toThrow(/--eval-dense-steps/);
  });
});

describe('npm run experiment --keep-failed', () => {
  const config = (...args: string[]) => experimentConfig(parseFlags(args, EXPERIMENT_FLAGS));

  it('refuses kept failures that would fill the group, by the rule the page and trainer use', () => {
    expect(config('--group-size', '4', '--keep-failed', '3').keepFailed).toBe(3);
    expect(() => config('--group-size', '4', '--keep-failed', '4')).toThrow(
      '--keep-failed must be below --group-size',
    );
  });
});

describe("npm run experiment: a method's variants", () => {
  const method = (...args: string[]) => methodOf(parseFlags(args, EXPERIMENT_FLAGS));

  it('runs a variant by its method name, labelled so', () => {
    expect(method('--method', 'mentor-no-reminder')).toEqual({
      method: 'mentor-no-reminder',
      label: 'mentor-no-reminder',
    });
  });

  it('takes the older flag spelling as the same entry, labelled by the method it varies', () => {
    expect(method('--method', 'mentor', '--mentor-shaped', 'whole')).toEqual({
      method: 'mentor-whole',
      label: 'mentor',
    });
    expect(method('--method', 'refine', '--refine-from-mark')).toEqual({
      method: 'refine-from-mark',
      label: 'refine',
    });
    // A flag at its default value is the method itself.
    expect(method('--method', 'mentor', '--mentor-remind', 'on')).toEqual({
      method: 'mentor',
      label: 'mentor',
    });
  });

  it('refuses a variant flag beside another method, and two variants at once', () => {
    expect(() => method('--method', 'static', '--mentor-remind', 'off')).toThrow(
      '--mentor-remind is a variant of --method mentor',
    );
    expect(() => method('--method', 'mentor-cd', '--mentor-channel', 'demonstrate')).toThrow(
      '--mentor-channel is a variant of --method mentor',
    );
    expect(() =>
      method('--method', 'mentor', '--mentor-shaped', 'off', '--mentor-remind', 'off'),
    ).toThrow('--mentor-shaped and --mentor-remind: one variant at a time');
  });
});
