import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../../engine/cpu/cpu-backend.ts';
import { loadCheckpoint } from '../../model/checkpoint.ts';
import { Transformer } from '../../model/transformer.ts';
import { DEFAULT_GRPO } from '../../rl/config.ts';
import type { StepMetrics } from '../../rl/metrics.ts';
import { GrpoTrainer } from '../../rl/trainer.ts';
import type { TrainingState } from '../../rl/training-state.ts';
import { familyEntry } from '../../tasks/index.ts';
import { RemoteIntervention, inProcessMentor } from './remote.ts';

const BASE = new Uint8Array(readFileSync('public/checkpoints/arithmetic-tiny.safetensors'));

/** A mentor lane's trainer on the shipped base, or on weights from seed `init` (a state replaces them). */
function mentorTrainer(init: number | 'base'): GrpoTrainer {
  const be = new CpuBackend();
  const base = loadCheckpoint(be, BASE).model;
  const model = init === 'base' ? base : Transformer.create(be, base.config, init);
  const config = {
    ...DEFAULT_GRPO,
    task: 'arithmetic' as const,
    seed: 7,
    schedule: [{ step: 0, level: 3 }],
    prompts: 4,
    groupSize: 4,
    lr: 3e-3,
    lrWarmupSteps: 2,
    evalEvery: 2,
    evalSize: 8,
    replay: 0.25,
    replayLevel: 3,
  };
  const mentor = new RemoteIntervention('mentor', 7, inProcessMentor);
  return new GrpoTrainer(model.be, model, familyEntry('arithmetic').training, config, mentor);
}

/** Steps up to `until`, with a live jump to level 4 before step 2 (as the slider makes one). */
async function run(t: GrpoTrainer, until: number): Promise<StepMetrics[]> {
  const out: StepMetrics[] = [];
  while (t.step < until) {
    if (t.step === 2) t.setLevel(4);
    out.push(await t.trainStep());
  }
  return out;
}

/** What a step measured, less its speed (wall time differs from run to run). */
const comparable = (ms: StepMetrics[]) => ms.map(({ tokens_per_s: _, ...rest }) => rest);

describe('a training state: a restored trainer goes on as if it had never stopped', () => {
  it('gives the same metrics as an uninterrupted run, mentor statistics and optimizer included', async () => {
    const whole = comparable(await run(mentorTrainer('base'), 9));

    const first = mentorTrainer('base');
    await run(first, 6);
    const problems: string[] = [];
    const state = await first.saveState(problems);
    expect(problems).toEqual([]);
    expect(state.intervention).toMatchObject({ keeper: { level: 4 } });

    // Other initial weights and a fresh mentor: everything that matters comes from the state.
    const resumed = mentorTrainer(99);
    await resumed.restoreState(structuredClone(state), problems);
    expect(problems).toEqual([]);
    const rest = comparable(await run(resumed, 9));
    expect(rest.map((m) => m.level)).toEqual([4, 4, 4]);
    expect(rest).toEqual(whole.slice(6));
    expect(rest.some((m) => m.interventions.length > 0)).toBe(true);

    // The check can fail: the same state with AdamW's moments zeroed goes elsewhere.
    const zeroed: TrainingState = structuredClone(state);
    for (const t of zeroed.optimizer.moments) t.data.fill(0);
    const amnesiac = mentorTrainer(99);
    await amnesiac.restoreState(zeroed);
    expect(comparable(await run(amnesiac, 9))).not.toEqual(whole.slice(6));
    // And so does a mentor restored with other statistics (a base strength it had not reached):
    // what the restored mentor does comes from its saved state.
    const other = structuredClone(state) as TrainingState & { intervention: { keeper: object } };
    other.intervention.keeper = { ...other.intervention.keeper, baseStrength: 3 };
    const misled = mentorTrainer(99);
    await misled.restoreState(other);
    expect(comparable(await run(misled, 9))).not.toEqual(whole.slice(6));
  });

  it('refuses a state that does not fit, and changes nothing', async () => {
    const source = mentorTrainer('base');
    await run(source, 1);
    const state = await source.saveState();
    const target = mentorTrainer(2);
    const before = await target.saveState();
    const broken: [string, (s: TrainingState) => void, RegExp][] = [
      ['another model', (s) => (s.model.layers = 7), /its model .* is not/],
      ['a weight missing', (s) => s.weights.pop(), /is missing/],
      ['a NaN weight', (s) => (s.weights[0].data[3] = NaN), /element 3 is not finite/],
      [
        'a negative second moment',
        (s) => (s.optimizer.moments[1].data[0] = -1),
        /adam\.v\..* is -1/,
      ],
      ['a moment missing', (s) => s.optimizer.moments.pop(), /has \d+ tensors/],
      ['a step that is not a count', (s) => (s.counters.step = 2.5), /step is 2.5/],
      ['a level out of range', (s) => (s.counters.lastLevel = 99), /level 99 is outside/],
    ];
    for (const [what, spoil, message] of broken) {
      const bad = structuredClone(state);
      spoil(bad);
      await expect(target.restoreState(bad), what).rejects.toThrow(message);
    }
    const after = await target.saveState();
    expect(after.counters).toEqual(before.counters);
    expect(after.weights.map((t) => Array.from(t.data))).toEqual(
      before.weights.map((t) => Array.from(t.data)),
    );
  });
});
