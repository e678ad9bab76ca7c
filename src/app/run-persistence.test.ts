import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { StepMetrics } from '../rl/metrics.ts';
import { Notices } from './notices.svelte.ts';
import { DEFAULT_PRESET, presetConfig } from './presets.ts';
import { RunPersistence, type PersistedExperiment } from './run-persistence.ts';
import { RunStore, SAVED_RUN_VERSION } from './run-store.ts';
import { fakeStep as metrics } from './testing/fake-metrics.ts';
import { decodeUrl } from './url-state.ts';

function experiment(): PersistedExperiment & { lanes: () => { unsaved: StepMetrics[] }[] } {
  const lanes = [0, 1].map((index) => ({
    index: index as 0 | 1,
    name: index ? 'GRPO + MENTOR' : 'GRPO',
    unsaved: [] as StepMetrics[],
    nextStep: 0,
    client: null,
    state: null,
  }));
  const config = presetConfig(DEFAULT_PRESET);
  return {
    lanes: () => lanes,
    config: () => config,
    base: () => null,
    mentorCode: () => null,
    taskCode: () => null,
    notices: new Notices(),
  };
}

const opened: RunPersistence[] = [];
async function persistence(e: PersistedExperiment): Promise<RunPersistence> {
  const p = new RunPersistence(e);
  opened.push(p);
  await p.open();
  return p;
}

afterEach(async () => {
  for (const p of opened.splice(0)) p.close();
  const store = await RunStore.open();
  await store.clear();
  store.close();
});

describe('the saved run is never lost silently', () => {
  it('a run saved by a newer version is kept untouched, offered for export or discarding, and discarded only when asked', async () => {
    const store = await RunStore.open();
    const newer = {
      version: SAVED_RUN_VERSION + 1,
      query: '?x=1',
      savedAt: 1,
      base: '',
      extra: 'x',
    };
    await store.begin(newer as never);
    store.close();

    const e = experiment();
    const p = await persistence(e);
    expect(await p.resumableFor(decodeUrl(''))).toEqual({ run: null, found: true });
    const notice = e.notices.list.find((n) =>
      n.message.startsWith('A saved run could not be resumed'),
    );
    expect(notice?.message).toMatch(/saved by a newer version of the playground/);
    expect(notice?.actions.map((a) => a.label)).toEqual(['Export the saved run', 'Discard it']);

    // Training goes on, but nothing is written over the kept run.
    p.replaceSaved();
    e.lanes()[0].unsaved.push(metrics(0), metrics(1));
    await p.flush();
    const check = await RunStore.open();
    expect((await check.raw()).meta).toEqual(newer);
    expect(e.lanes()[0].unsaved).toHaveLength(2);

    // Discarding it: the new run is saved from then on, steps kept in memory included.
    notice?.actions[1].run();
    await expect.poll(async () => (await check.raw()).steps.length).toBe(2);
    const r = await check.load();
    expect(r.kind === 'run' && r.run.lanes[0].map((m) => m.step)).toEqual([0, 1]);
    check.close();
  });

  it('a full disk keeps the steps in memory, says which, and writes them when it can', async () => {
    const e = experiment();
    const p = await persistence(e);
    p.replaceSaved();
    await p.resumableFor(decodeUrl(''));
    const store = (p as unknown as { store: RunStore }).store;
    const append = store.appendSteps.bind(store);
    let full = true;
    store.appendSteps = (lane, batch) =>
      full
        ? Promise.reject(new DOMException('the quota has been exceeded', 'QuotaExceededError'))
        : append(lane, batch);
    e.lanes()[0].unsaved.push(metrics(0), metrics(1), metrics(2));
    await p.flush();
    await p.flush();
    expect(e.lanes()[0].unsaved.map((m) => m.step)).toEqual([0, 1, 2]);
    const warnings = e.notices.list.filter((n) => n.message.includes('storage is full'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toMatch(/GRPO steps 0–2 are not saved yet/);

    full = false;
    e.lanes()[0].unsaved.push(metrics(3));
    await p.flush();
    expect(e.lanes()[0].unsaved).toEqual([]);
    expect(e.notices.list.at(-1)?.message).toBe('Saving works again: every step so far is saved.');
    const r = await store.load();
    expect(r.kind === 'run' && r.run.lanes[0].map((m) => m.step)).toEqual([0, 1, 2, 3]);
  });
});
