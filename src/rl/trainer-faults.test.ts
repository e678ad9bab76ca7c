import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpu-backend.ts';
import { FIRST_BACK_OFF, SET_ASIDE_AFTER } from './intervention-guard.ts';
import type { Intervention } from './intervention.ts';
import type { TaskModule } from '../tasks/custom/task-module.ts';
import { bandit, config } from './testing/bandit.ts';
import { checkNonFiniteRun, nonFiniteRun } from './testing/nonfinite-run.ts';
import { RESAMPLE, taskModuleTrainer, testTrainer } from './testing/trainer-probes.ts';

describe('GRPO trainer: faults of the task and the intervention', () => {
  it('skips an update whose gradient is NaN or infinite, and goes on (fault injection)', async () => {
    expect(checkNonFiniteRun(await nonFiniteRun(new CpuBackend()))).toEqual([]);
  });

  it("scores an answer the task's verifier fails on 0, and reports it as an event", async () => {
    // A task module whose verify throws on every answer but the reference.
    const task: TaskModule = {
      id: 'verify-throws',
      label: 'Verify throws',
      levels: { min: 1, max: 1 },
      sample: (_level, rng) => ({ text: 'a', answer: rng.pick(['a', 'b']) }),
      verify: (p, answer) => {
        if (answer !== p.answer) throw new Error(`cannot read ${answer}`);
        return 1;
      },
    };
    const trainer = taskModuleTrainer(task, 2, 4);
    const m = await trainer.trainStep();
    const faulted = trainer.rollouts.flatMap((g) => g.attempts).filter((a) => a.reward === 0);
    expect(faulted.length).toBeGreaterThan(0);
    expect(m.events).toEqual([
      expect.stringMatching(
        new RegExp(
          `^the verifier failed on ${faulted.length} answers? this step, each scored 0; the first: task "verify-throws": verify threw \\(cannot read .*\\) on the answer .* to "a"; scored 0$`,
        ),
      ),
    ]);
    expect((await trainer.trainStep()).step).toBe(1);
  });

  it("draws a problem again where the task's sampler fails, says so, and fails the step only when it always does", async () => {
    let calls = 0;
    const task: TaskModule = {
      id: 'sample-throws',
      label: 'Sample throws',
      levels: { min: 1, max: 1 },
      // Every third draw fails; from the 40th on, every one.
      sample: (_level, rng) => {
        calls++;
        if (calls % 3 === 0 || calls >= 40) throw new Error(`draw ${calls} failed`);
        return { text: 'a', answer: rng.pick(['a', 'b']) };
      },
    };
    const trainer = taskModuleTrainer(task, 4, 2);
    const m = await trainer.trainStep();
    expect(m.events).toEqual([
      'the sampler failed 1 time this step, each problem drawn again; the first: task "sample-throws": sample(1) threw: draw 3 failed',
    ]);
    await expect(async () => {
      for (let s = 0; s < 20; s++) await trainer.trainStep();
    }).rejects.toThrow(/sample\(1\) threw: draw \d+ failed/);
  });

  it('goes on without help when the intervention misses its deadline, and says so', async () => {
    let recovered = '';
    const stuck: Intervention = {
      name: 'stuck',
      plan: () => new Promise(() => {}),
      recover: (reason) => {
        recovered = reason;
      },
    };
    const trainer = testTrainer(
      bandit,
      config({ prompts: 2, groupSize: 4, mentorDeadlineMs: 50 }),
      stuck,
    );
    const m = await trainer.trainStep();
    expect(m.hinted_frac).toBe(0);
    expect(m.events.join(' ')).toMatch(/stuck plan failed at step 0: no answer within 50 ms/);
    expect(recovered).toMatch(/no answer within 50 ms/);
  });

  it('a mentor that never answers observe or stats costs each step at most one deadline', async () => {
    const recoveries: string[] = [];
    let observed = 0;
    const mute: Intervention = {
      name: 'mute',
      // Help every failed group, so that observe is due.
      plan: async (batch) =>
        batch.round === 0
          ? batch.groups.map((g) => ({ group: g.group, help: RESAMPLE, note: 'again' }))
          : [],
      observe: () => {
        observed++;
        return new Promise(() => {});
      },
      stats: () => new Promise(() => {}),
      recover: (reason) => {
        recoveries.push(reason);
      },
    };
    const deadline = 60;
    const trainer = testTrainer(
      bandit,
      config({ prompts: 2, groupSize: 4, mentorDeadlineMs: deadline, maxRounds: 3 }),
      mute,
    );
    for (let s = 0; s < 3; s++) {
      const m = await trainer.trainStep();
      // observe missed its deadline; stats, and later rounds, were not asked at all.
      expect(m.events[0]).toBe(
        `mute observe failed at step ${s}: no answer within ${deadline} ms; going on without it`,
      );
      expect(m.interventions.length).toBeGreaterThan(0);
      expect(m.intervention_stats).toBeUndefined();
    }
    expect(observed).toBe(3);
    expect(recoveries).toHaveLength(3);
  });

  it('a mentor that fails three steps in a row is set aside, asked again after a back-off that doubles', async () => {
    let asked = 0;
    let answers = false;
    const flaky: Intervention = {
      name: 'flaky',
      plan: () => {
        asked++;
        return answers ? Promise.resolve([]) : new Promise(() => {});
      },
    };
    const trainer = testTrainer(
      bandit,
      config({ prompts: 2, groupSize: 4, mentorDeadlineMs: 30 }),
      flaky,
    );
    const events: string[][] = [];
    for (let s = 0; s < 3 + FIRST_BACK_OFF + 1; s++)
      events.push((await trainer.trainStep()).events);
    // Steps 0–2 each wait out the deadline; step 2 sets it aside, with one message.
    expect(events[2]).toEqual([
      'flaky plan failed at step 2: no answer within 30 ms; going on without it',
      `flaky set aside after ${SET_ASIDE_AFTER} steps in a row with a failure: the steps go on without it; asked again at step 13 (after ${FIRST_BACK_OFF} steps)`,
    ]);
    // Not asked while set aside: those steps go on as without it, with no events.
    expect(events.slice(3, 13).every((e) => e.length === 0)).toBe(true);
    // Asked again at step 13, it fails again: set aside at once, for twice as long.
    expect(events[13]).toEqual([
      'flaky plan failed at step 13: no answer within 30 ms; going on without it',
      `flaky set aside after 4 steps in a row with a failure: the steps go on without it; asked again at step 34 (after ${2 * FIRST_BACK_OFF} steps)`,
    ]);
    expect(asked).toBe(4);
    // Once it answers, and a step goes by without a failure, the row is over.
    for (let s = 14; s < 34; s++) await trainer.trainStep();
    answers = true;
    for (let s = 34; s < 37; s++) expect((await trainer.trainStep()).events).toEqual([]);
    answers = false;
    for (let s = 37; s < 39; s++) expect((await trainer.trainStep()).events).toHaveLength(1);
    expect((await trainer.trainStep()).events[1]).toMatch(
      /set aside after 3 steps in a row .* asked again at step 50 \(after 10 steps\)/,
    );
    // Another intervention (a person applied new code) is asked at once.
    const before = asked;
    trainer.interventionChanged();
    await trainer.trainStep();
    expect(asked).toBe(before + 1);
  });

  it('a state the intervention cannot save between steps costs the next step nothing', async () => {
    let planned = 0;
    const forgetful: Intervention = {
      name: 'forgetful',
      async plan(batch) {
        if (batch.round > 0) return [];
        planned++;
        return batch.groups.map((g) => ({ group: g.group, help: RESAMPLE, note: 'again' }));
      },
      saveState: () => new Promise(() => {}),
    };
    const c = config({ prompts: 2, groupSize: 4, mentorDeadlineMs: 50 });
    const trainer = testTrainer(bandit, c, forgetful);
    await trainer.trainStep();
    const problems: string[] = [];
    const state = await trainer.saveState(problems);
    expect(problems).toEqual([
      'forgetful saveState failed after step 0: no answer within 50 ms; going on without it',
    ]);
    expect(state.intervention).toBeUndefined();
    const next = await trainer.trainStep();
    expect(next.events).toEqual([]);
    expect(next.interventions.length).toBeGreaterThan(0);
    expect(planned).toBe(2);
  });
});
