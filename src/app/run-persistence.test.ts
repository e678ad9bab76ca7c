import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { StepMetrics } from '../rl/metrics.ts';
import { Notices } from './notices.svelte.ts';
import { DEFAULT_PRESET, presetConfig } from './presets.ts';
import { RunPersistence, type PersistedExperiment } from './run-persistence.ts';
import { RunStore, SAVED_RUN_VERSION } from './run-store.ts';
import { fakeStep as metrics } from './testing/fake-metrics.ts';
import { decodeUrl } from './url-state.ts';
import { CUSTOM_TASK } from './experiment-config.ts';
import { withTask } from './experiment-params.ts';
import { PLACEHOLDER_TASK, registerCustomTask } from './custom-task/page-task.ts';

function experiment(
  over: Partial<Omit<PersistedExperiment, 'lanes'>> = {},
): PersistedExperiment & { lanes: () => { unsaved: StepMetrics[] }[] } {
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
    registerSavedTask: () => Promise.resolve(false),
    notices: new Notices(),
    ...over,
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

describe('a saved run on a custom task', () => {
  // A task whose levels reach past the stand-in's 1–9, as a check would describe it.
  const wide = {
    ...PLACEHOLDER_TASK,
    moduleId: 'long-words',
    label: 'Long words',
    levels: { min: 1, max: 12 },
    levelNames: Array.from({ length: 12 }, (_, i) => `${i + 1} letters`),
    collapse: { easy: 10, hard: 12 },
    checked: { ...PLACEHOLDER_TASK.checked, maxTokens: Array<number>(12).fill(128) },
  };

  async function saveAtLevel12(): Promise<void> {
    registerCustomTask(wide);
    const config = withTask(presetConfig(DEFAULT_PRESET), CUSTOM_TASK);
    config.schedule = [{ step: 0, level: 12 }];
    const e = experiment({ config: () => config, taskCode: () => 'export default {}' });
    const p = await persistence(e);
    p.replaceSaved();
    await p.resumableFor(decodeUrl(''));
    e.lanes()[0].unsaved.push(metrics(0));
    e.lanes()[1].unsaved.push(metrics(0));
    await p.flush();
    p.close();
    // A reload: the page knows the stand-in until the saved code is checked again.
    registerCustomTask(null);
  }

  afterEach(() => registerCustomTask(null));

  it('reads its schedule with its own levels once its code is checked again', async () => {
    await saveAtLevel12();
    const asked: string[] = [];
    const e = experiment({
      registerSavedTask: (code) => {
        asked.push(code);
        registerCustomTask(wide);
        return Promise.resolve(true);
      },
    });
    const { run } = await (await persistence(e)).resumableFor(decodeUrl(''));
    expect(asked).toEqual(['export default {}']);
    expect(run?.config.schedule).toEqual([{ step: 0, level: 12 }]);
    expect(run?.taskCode).toBe('export default {}');
  });

  it('is kept, not resumed with a clamped schedule, when its code cannot be checked', async () => {
    await saveAtLevel12();
    const e = experiment();
    expect(await (await persistence(e)).resumableFor(decodeUrl(''))).toEqual({
      run: null,
      found: true,
    });
    expect(e.notices.list.at(-1)?.message).toMatch(
      /A saved run could not be resumed: its settings no longer read as they were saved/,
    );
  });
});
