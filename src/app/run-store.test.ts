import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { presetConfig } from './presets.ts';
import { RunStore, SAVED_RUN_VERSION, type SavedLaneState } from './run-store.ts';
import { fakeStep as step } from './testing/fake-metrics.ts';
import { decodeUrl, encodeUrl } from './url-state.ts';

let dbs = 0;
const fresh = () => RunStore.open(`test-${++dbs}`);

/** Write records straight into the stores, as an older (or newer) build would have. */
async function writeRaw(
  name: string,
  meta: unknown,
  steps: unknown[],
  checkpoints: unknown[],
): Promise<void> {
  const store = await RunStore.open(name);
  store.close();
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const r = indexedDB.open(name);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  const tx = db.transaction(['meta', 'steps', 'checkpoints'], 'readwrite');
  if (meta !== undefined) tx.objectStore('meta').put(meta, 'current');
  for (const s of steps) tx.objectStore('steps').put(s);
  for (const c of checkpoints) tx.objectStore('checkpoints').put(c);
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

const v1Step = (lane: number, n: number) => {
  const { skipped_steps: _, ...old } = step(n);
  return { lane, step: n, metrics: old };
};
const v1Meta = { version: 1, query: '?task=arithmetic', savedAt: 1, base: 'shipped base' };

describe('the saved run in IndexedDB', () => {
  it('keeps steps and checkpoints with their training state, typed arrays and all', async () => {
    const store = await fresh();
    await store.begin({
      version: SAVED_RUN_VERSION,
      query: '?seed=2',
      savedAt: 5,
      base: 'b',
      mentorCode: 'export default { plan: async () => [] };',
      taskCode: null,
    });
    await store.appendSteps(0, [step(0), step(1)]);
    await store.appendSteps(1, [step(0), step(1, { skipped_steps: 1 })]);
    const state: SavedLaneState = {
      counters: {
        step: 2,
        skippedSteps: 1,
        manualLevel: null,
        lastLevel: 3,
        previousLevel: null,
        levelSince: 0,
        lastEval: null,
      },
      optimizer: {
        step: 2,
        moments: [{ name: 'adam.m.x', shape: [2], data: Float32Array.of(1, 2) }],
      },
      intervention: { keeper: { level: 3 } },
    };
    await store.saveCheckpoints([
      { lane: 0, step: 2, bytes: Uint8Array.of(1, 2, 3), state },
      { lane: 1, step: 2, bytes: Uint8Array.of(4), state: null },
    ]);
    await store.truncate(0, 1);
    const r = await store.load();
    expect(r.kind).toBe('run');
    if (r.kind !== 'run') return;
    expect(r.migratedFrom).toBeNull();
    expect(r.dropped).toBe(0);
    expect(r.run.lanes.map((l) => l.map((m) => m.step))).toEqual([[0], [0, 1]]);
    expect(r.run.lanes[1][1].skipped_steps).toBe(1);
    const c0 = r.run.checkpoints.find((c) => c.lane === 0);
    expect(c0?.state?.optimizer.moments[0].data).toEqual(Float32Array.of(1, 2));
    expect(c0?.state?.intervention).toEqual({ keeper: { level: 3 } });
    store.close();
  });

  it('migrates a run saved in format 1, and writes it back in the current format', async () => {
    const name = `test-${++dbs}`;
    await writeRaw(
      name,
      v1Meta,
      [v1Step(0, 0), v1Step(1, 0), v1Step(0, 1)],
      [{ lane: 0, step: 1, bytes: Uint8Array.of(9) }],
    );
    const store = await RunStore.open(name);
    const r = await store.load();
    expect(r.kind).toBe('run');
    if (r.kind !== 'run') return;
    expect(r.migratedFrom).toBe(1);
    expect(r.dropped).toBe(0);
    expect(r.run.meta.version).toBe(SAVED_RUN_VERSION);
    expect(r.run.lanes[0].map((m) => m.skipped_steps)).toEqual([0, 0]);
    expect(r.run.checkpoints).toEqual([{ lane: 0, step: 1, bytes: Uint8Array.of(9), state: null }]);
    // Migrated for good: the stores hold the new format, and a second load migrates nothing.
    const raw = await store.raw();
    expect((raw.meta as { version: number }).version).toBe(SAVED_RUN_VERSION);
    const again = await store.load();
    expect(again.kind === 'run' && again.migratedFrom).toBeNull();
    store.close();
  });

  // A query saved before a parameter existed resumes the run as it was trained.
  const migratedConfig = async (version: number, query: string) => {
    const name = `test-${++dbs}`;
    await writeRaw(name, { ...v1Meta, version, query }, [], []);
    const store = await RunStore.open(name);
    const r = await store.load();
    store.close();
    expect(r.kind === 'run' && r.migratedFrom).toBe(version);
    return r.kind === 'run' ? decodeUrl(r.run.meta.query).config : null;
  };

  it('migrates a run saved in format 4 to one without custom mentor code', async () => {
    const name = `test-${++dbs}`;
    await writeRaw(
      name,
      { ...v1Meta, version: 4, query: encodeUrl(presetConfig('quick')) },
      [],
      [],
    );
    const store = await RunStore.open(name);
    const r = await store.load();
    store.close();
    expect(r.kind === 'run' && r.migratedFrom).toBe(4);
    expect(r.kind === 'run' && r.run.meta.mentorCode).toBeNull();
    expect(r.kind === 'run' && r.run.meta.taskCode).toBeNull();
  });

  it('migrates a run saved in format 2 to run on without distillation, as it was trained', async () => {
    const query = encodeUrl(presetConfig('listlang')).replace(/&distill(_prompts)?=[^&]*/g, '');
    expect(decodeUrl(query).config.distill).toBeGreaterThan(0);
    expect(await migratedConfig(2, query)).toEqual({
      ...presetConfig('listlang'),
      distill: 0,
      distillPrompts: 0,
    });
  });

  it('migrates a run saved in format 3 to distil on its replayed prompts alone, as it was trained', async () => {
    // Format 3 wrote every parameter of its day: distillation at its weight, no extra prompts.
    const query = encodeUrl({ ...presetConfig('listlang'), distill: 0.3 }).replace(
      /&distill_prompts=[^&]*/,
      '',
    );
    expect(decodeUrl(query).config.distillPrompts).toBeGreaterThan(0);
    expect(await migratedConfig(3, query)).toEqual({
      ...presetConfig('listlang'),
      distill: 0.3,
      distillPrompts: 0,
    });
  });

  it('never clears a run it cannot read: a newer format, a damaged description, steps without one', async () => {
    const cases: [unknown, RegExp][] = [
      [
        { ...v1Meta, version: SAVED_RUN_VERSION + 1 },
        new RegExp(`saved by a newer version .*format ${SAVED_RUN_VERSION + 1}`),
      ],
      [{ ...v1Meta, version: 'two' }, /its format \("two"\) is not one/],
      [{ version: SAVED_RUN_VERSION, query: 7 }, /its description is damaged/],
      [undefined, /steps but no description/],
    ];
    for (const [meta, reason] of cases) {
      const name = `test-${++dbs}`;
      await writeRaw(name, meta, [v1Step(0, 0)], [{ lane: 0, step: 1, bytes: Uint8Array.of(9) }]);
      const store = await RunStore.open(name);
      const before = await store.raw();
      const r = await store.load();
      expect(r).toEqual({ kind: 'unreadable', reason: expect.stringMatching(reason) });
      expect(await store.raw()).toEqual(before);
      store.close();
    }
  });

  it('drops malformed steps and checkpoints, counted, and keeps the rest', async () => {
    const name = `test-${++dbs}`;
    await writeRaw(
      name,
      v1Meta,
      [
        v1Step(0, 0),
        { lane: 0, step: 1, metrics: { step: 'one' } },
        { lane: 7, step: 2, metrics: step(2) },
      ],
      [
        { lane: 0, step: 1, bytes: 'not bytes' },
        { lane: 1, step: 1, bytes: Uint8Array.of(1) },
      ],
    );
    const store = await RunStore.open(name);
    const r = await store.load();
    expect(r.kind === 'run' && r.dropped).toBe(3);
    expect(r.kind === 'run' && r.run.lanes[0].map((m) => m.step)).toEqual([0]);
    expect(r.kind === 'run' && r.run.checkpoints.map((c) => c.lane)).toEqual([1]);
    store.close();
  });
});
