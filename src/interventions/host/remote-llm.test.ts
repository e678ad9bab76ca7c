// The opt-in language model in a mentor behind a MessageChannel (the Node form of the mentor
// worker): real Transformers.js on the generated fixtures, offline.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { LlmSpec } from './worker-api.ts';
import { GARBAGE_FIXTURE, VALID_FIXTURE } from '../mentor/llm/fixtures.ts';
import { arithmeticTrainer } from '../testing/arithmetic-trainer.ts';
import { MAX_LLM_RELOADS, RemoteIntervention, inProcessMentor } from './remote.ts';

const MODELS = fileURLToPath(new URL('../../../public/models', import.meta.url));
const spec = (modelId: string): LlmSpec => ({
  modelId,
  source: { local: true, modelRoot: MODELS },
});

const trainer = (intervention: RemoteIntervention) => arithmeticTrainer(intervention, 5000);

describe('the LLM agent in a remote mentor', () => {
  it('loads with progress over the channel; its hints and figures reach the step metrics', async () => {
    const remote = new RemoteIntervention('mentor', 1, inProcessMentor);
    const progress: [number, number][] = [];
    const r = await remote.enableLlm(spec(VALID_FIXTURE.id), (loaded, total) =>
      progress.push([loaded, total]),
    );
    expect(r).toEqual({ ok: true, modelId: VALID_FIXTURE.id });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)?.[0]).toBe(progress.at(-1)?.[1]);
    const t = trainer(remote);
    const steps = [await t.trainStep(), await t.trainStep()];
    const records = steps.flatMap((m) => m.interventions);
    const llm = records.filter((x) => x.author === 'llm');
    expect(llm.length).toBeGreaterThan(0);
    expect(llm[0].hint).toBe('c1');
    expect(llm[0].note).toBe('The units column carries, and the attempts forget it.');
    const stats = steps[1].intervention_stats ?? {};
    expect(stats.llm_calls).toBeGreaterThan(0);
    expect(stats.llm_used_share).toBeCloseTo(llm.length / records.length);
    expect(stats.llm_ms_per_call).toBeGreaterThan(0);
  });

  it('garbage replies are rejected, the rules help instead, and training goes on', async () => {
    const remote = new RemoteIntervention('mentor', 1, inProcessMentor);
    expect((await remote.enableLlm(spec(GARBAGE_FIXTURE.id))).ok).toBe(true);
    const m = await trainer(remote).trainStep();
    expect(m.interventions.length).toBeGreaterThan(0);
    expect(m.interventions.every((x) => x.author === 'rules')).toBe(true);
    expect(m.interventions[0].declined?.why).toMatch(/^unparseable/);
    expect(m.intervention_stats).toMatchObject({ llm_valid_rate: 0, llm_used_share: 0 });
    expect(m.events).toEqual([]);
  });

  it('a missing model is a clear message; switching off goes back to the rules alone', async () => {
    const remote = new RemoteIntervention('mentor', 1, inProcessMentor);
    const r = await remote.enableLlm(spec('no-such-model'));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/"no-such-model" not found.*goes on with its rules/s);
    expect(remote.llmOn).toBe(false);
    expect(await remote.stats()).toEqual({});
    await remote.enableLlm(spec(VALID_FIXTURE.id));
    await remote.disableLlm();
    expect(remote.llmOn).toBe(false);
    expect(await remote.stats()).toEqual({});
  });

  it('a restarted mentor gets its model back, at most MAX_LLM_RELOADS times per opt-in', async () => {
    const remote = new RemoteIntervention('mentor', 1, inProcessMentor);
    const lost: string[] = [];
    remote.onLlmLost = (m) => lost.push(m);
    await remote.enableLlm(spec(VALID_FIXTURE.id));
    for (let i = 0; i < MAX_LLM_RELOADS; i++) {
      remote.recover();
      expect(await remote.reloading).toMatchObject({ ok: true });
      expect(await remote.stats()).toMatchObject({ llm_calls: 0 });
    }
    remote.recover();
    expect(remote.reloading).toBeNull();
    expect(remote.llmOn).toBe(false);
    expect(await remote.stats()).toEqual({});
    expect(lost).toEqual([
      `Language model "${VALID_FIXTURE.id}" switched off: the mentor had to restart 3 times with it on; the mentor goes on with its rules.`,
    ]);
  });

  it('switching off while the model loads: the load is dropped when it ends', async () => {
    const remote = new RemoteIntervention('mentor', 1, inProcessMentor);
    const pending = remote.enableLlm(spec(VALID_FIXTURE.id));
    await remote.disableLlm();
    const r = await pending;
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/was overtaken/);
    expect(remote.llmOn).toBe(false);
    expect(await remote.stats()).toEqual({});
  });

  it('a restart while the model loads ends that load with a message instead of hanging', async () => {
    const remote = new RemoteIntervention('mentor', 1, inProcessMentor);
    const pending = remote.enableLlm(spec(VALID_FIXTURE.id));
    remote.recover();
    const r = await pending;
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/the mentor restarted while language model .* was loading/);
    expect(remote.llmOn).toBe(false);
    expect(await remote.stats()).toEqual({});
  });
});
