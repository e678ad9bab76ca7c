// The current run in IndexedDB, so it survives a reload: the experiment (as its URL query, read
// back through the URL codec), every lane's step metrics (appended as they come), and the latest
// checkpoint of each lane with its step and training state, to resume training from. One run is
// kept; a new run replaces it. Records carry a format version: older ones are migrated when read,
// newer or damaged ones are reported and left as they are. Everything read back is checked;
// nothing here throws to the caller but a storage failure.
import * as v from 'valibot';
import {
  STEP_METRIC_KEYS,
  STEP_METRICS,
  type MetricKind,
  type MetricSpec,
  type StepMetrics,
} from '../rl/metrics.ts';
import type { TrainingState } from '../rl/training-state.ts';
import { MAX_CODE_LENGTH } from './shared-code.ts';

const DB_NAME = 'mentor-playground';
/** IndexedDB's own version: which object stores exist. */
const DB_VERSION = 1;
const META = 'meta';
const STEPS = 'steps';
const CHECKPOINTS = 'checkpoints';
const CURRENT = 'current';

/** The format of the saved records; older formats are migrated (MIGRATIONS) when read. */
export const SAVED_RUN_VERSION = 6;

export interface SavedMeta {
  version: number;
  /** encodeUrl(config) of the run. */
  query: string;
  savedAt: number;
  /** A label for what the lanes started from (the shipped base or an imported file). */
  base: string;
  /** The custom mentor's code, as the person applied it; null for none. */
  mentorCode: string | null;
  /** The custom task's code, as the person checked it; null for none. */
  taskCode: string | null;
}

/** What a lane needs besides its weights to go on exactly (a TrainingState less model and weights). */
export type SavedLaneState = Omit<TrainingState, 'model' | 'weights'>;

export interface SavedCheckpoint {
  lane: number;
  /** Steps the lane had done when the checkpoint was taken: it resumes at this step. */
  step: number;
  bytes: Uint8Array;
  /** The lane's training state at that step; null in runs saved before it was kept. */
  state: SavedLaneState | null;
}

export interface SavedRun {
  meta: SavedMeta;
  lanes: StepMetrics[][];
  checkpoints: SavedCheckpoint[];
}

/** What a load found: nothing, a run (migrated from an older format?), or a run it cannot read. */
export type LoadedRun =
  | { kind: 'none' }
  | { kind: 'run'; run: SavedRun; dropped: number; migratedFrom: number | null }
  | { kind: 'unreadable'; reason: string };

/** The stores' records as they are, for migrations and for exporting a run that cannot be read. */
export interface RawRun {
  meta: unknown;
  steps: unknown[];
  checkpoints: unknown[];
}

type Row = Record<string, unknown>;
const asRow = (x: unknown): Row => (typeof x === 'object' && x !== null ? (x as Row) : {});

/**
 * A migration to `version` for a parameter that did not exist before it: a saved query without it
 * gets `value` (what the run was trained with), not the default of the day.
 */
function pinParam(version: number, param: string, value: string): (r: RawRun) => RawRun {
  return (r) => {
    const meta = asRow(r.meta);
    const query = meta.query;
    const old = typeof query === 'string' && !new URLSearchParams(query).has(param);
    return {
      ...r,
      meta: { ...meta, version, ...(old ? { query: `${query}&${param}=${value}` } : {}) },
    };
  };
}

/** Migration from format n (the key) to n + 1. */
const MIGRATIONS: Record<number, (r: RawRun) => RawRun> = {
  // Format 2: every step counts its skipped updates; checkpoints carry the lane's training state.
  1: (r) => ({
    meta: { ...asRow(r.meta), version: 2 },
    steps: r.steps.map((row) => ({
      ...asRow(row),
      metrics: { skipped_steps: 0, ...asRow(asRow(row).metrics) },
    })),
    checkpoints: r.checkpoints.map((c) => ({ state: null, ...asRow(c) })),
  }),
  // Format 3: runs before distillation had none; the URL's default now depends on the task.
  2: pinParam(3, 'distill', '0'),
  // Format 4: runs before distillation on extra easy prompts had none.
  3: pinParam(4, 'distill_prompts', '0'),
  // Format 5: the custom mentor's code travels with the run; runs before it had none.
  4: (r) => ({ ...r, meta: { mentorCode: null, ...asRow(r.meta), version: 5 } }),
  // Format 6: the custom task's code travels with the run; runs before it had none.
  5: (r) => ({ ...r, meta: { taskCode: null, ...asRow(r.meta), version: 6 } }),
};

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const InterventionSchema = v.looseObject({
  step: v.number(),
  group: v.number(),
  round: v.number(),
  problem: v.string(),
  diagnosis: v.nullable(
    v.looseObject({
      cause: v.string(),
      evidence: v.string(),
      confidence: v.number(),
      frontier: v.optional(v.number()),
    }),
  ),
  hint: v.nullable(v.string()),
  scaffold: v.nullable(v.string()),
  strength: v.number(),
  rewards: v.array(v.number()),
  note: v.string(),
  author: v.string(),
});
/** A declared step scalar's check, by its kind. */
const KIND_SCHEMAS: Record<MetricKind, v.GenericSchema> = {
  count,
  integer: v.pipe(v.number(), v.integer()),
  number: v.number(),
  'number-or-null': v.nullable(v.number()),
  text: v.string(),
};
/**
 * Enough of StepMetrics that the page can draw and list it without surprises: every declared
 * scalar by its kind, and the records the page reads (intervention_stats goes through unchecked).
 */
const StepSchema = v.looseObject({
  ...Object.fromEntries(
    STEP_METRIC_KEYS.map((key) => {
      const spec: MetricSpec = STEP_METRICS[key];
      const schema = KIND_SCHEMAS[spec.kind];
      return [key, spec.optional ? v.optional(schema) : schema];
    }),
  ),
  eval_accuracy_levels: v.optional(v.record(v.string(), v.number())),
  interventions: v.array(InterventionSchema),
  events: v.array(v.string()),
});
const TensorSchema = v.object({
  name: v.string(),
  shape: v.array(count),
  data: v.instance(Float32Array),
});
/** The shape of a saved lane state; its values are checked against the model when it is used. */
const LaneStateSchema = v.looseObject({
  counters: v.looseObject({ step: count }),
  optimizer: v.object({ step: count, moments: v.array(TensorSchema) }),
});
const CheckpointSchema = v.object({
  lane: v.pipe(v.number(), v.integer(), v.minValue(-1)),
  step: count,
  bytes: v.instance(Uint8Array),
  state: v.nullable(LaneStateSchema),
});
const MetaSchema = v.object({
  version: v.literal(SAVED_RUN_VERSION),
  query: v.pipe(v.string(), v.maxLength(4096)),
  savedAt: v.number(),
  base: v.pipe(v.string(), v.maxLength(300)),
  mentorCode: v.nullable(v.pipe(v.string(), v.maxLength(MAX_CODE_LENGTH))),
  taskCode: v.nullable(v.pipe(v.string(), v.maxLength(MAX_CODE_LENGTH))),
});

function req<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
  });
}

export class RunStore {
  private constructor(private readonly db: IDBDatabase) {}

  /** The store, or an Error saying why there is none (private mode, blocked, no IndexedDB). */
  static async open(name = DB_NAME): Promise<RunStore> {
    if (typeof indexedDB === 'undefined') throw new Error('this browser has no IndexedDB');
    const open = indexedDB.open(name, DB_VERSION);
    open.onupgradeneeded = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains(META)) db.createObjectStore(META);
      if (!db.objectStoreNames.contains(STEPS))
        db.createObjectStore(STEPS, { keyPath: ['lane', 'step'] });
      if (!db.objectStoreNames.contains(CHECKPOINTS))
        db.createObjectStore(CHECKPOINTS, { keyPath: 'lane' });
    };
    const db = await Promise.race([
      req(open),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('IndexedDB did not open within 5 s')), 5000),
      ),
    ]);
    return new RunStore(db);
  }

  close(): void {
    this.db.close();
  }

  /** Forget the saved run and start saving `meta` as the new one. */
  async begin(meta: SavedMeta): Promise<void> {
    const tx = this.db.transaction([META, STEPS, CHECKPOINTS], 'readwrite');
    tx.objectStore(STEPS).clear();
    tx.objectStore(CHECKPOINTS).clear();
    tx.objectStore(META).put(meta, CURRENT);
    await done(tx);
  }

  async saveMeta(meta: SavedMeta): Promise<void> {
    const tx = this.db.transaction(META, 'readwrite');
    tx.objectStore(META).put(meta, CURRENT);
    await done(tx);
  }

  /** Add steps of a lane (a step already saved is replaced). */
  async appendSteps(lane: number, metrics: readonly StepMetrics[]): Promise<void> {
    if (!metrics.length) return;
    const tx = this.db.transaction(STEPS, 'readwrite');
    const store = tx.objectStore(STEPS);
    for (const m of metrics) store.put({ lane, step: m.step, metrics: m });
    await done(tx);
  }

  /** Drop a lane's steps from `fromStep` on (the lane rewound to a snapshot). */
  async truncate(lane: number, fromStep: number): Promise<void> {
    const tx = this.db.transaction(STEPS, 'readwrite');
    tx.objectStore(STEPS).delete(
      IDBKeyRange.bound([lane, fromStep], [lane, Number.MAX_SAFE_INTEGER]),
    );
    await done(tx);
  }

  async saveCheckpoints(checkpoints: readonly SavedCheckpoint[]): Promise<void> {
    const tx = this.db.transaction(CHECKPOINTS, 'readwrite');
    for (const c of checkpoints) tx.objectStore(CHECKPOINTS).put(c);
    await done(tx);
  }

  async clear(): Promise<void> {
    const tx = this.db.transaction([META, STEPS, CHECKPOINTS], 'readwrite');
    for (const s of [META, STEPS, CHECKPOINTS]) tx.objectStore(s).clear();
    await done(tx);
  }

  /** Everything in the stores, as it is. */
  async raw(): Promise<RawRun> {
    const tx = this.db.transaction([META, STEPS, CHECKPOINTS], 'readonly');
    const [meta, steps, checkpoints] = await Promise.all([
      req(tx.objectStore(META).get(CURRENT)),
      req(tx.objectStore(STEPS).getAll()),
      req(tx.objectStore(CHECKPOINTS).getAll()),
    ]);
    return { meta, steps, checkpoints };
  }

  /** Replace everything with `r` in one transaction (a migration lands whole or not at all). */
  private async rewrite(r: RawRun): Promise<void> {
    const tx = this.db.transaction([META, STEPS, CHECKPOINTS], 'readwrite');
    tx.objectStore(STEPS).clear();
    tx.objectStore(CHECKPOINTS).clear();
    for (const row of r.steps) tx.objectStore(STEPS).put(row);
    for (const row of r.checkpoints) tx.objectStore(CHECKPOINTS).put(row);
    tx.objectStore(META).put(r.meta, CURRENT);
    await done(tx);
  }

  /**
   * The saved run, checked. An older format is migrated (and written back); a newer or damaged
   * one is reported as unreadable and left untouched. Malformed steps and checkpoints are dropped
   * (counted).
   */
  async load(lanes = 2): Promise<LoadedRun> {
    const found = await this.raw();
    const read = readRun(found, lanes);
    if (read.kind === 'run' && read.migratedFrom !== null) await this.rewrite(read.migrated);
    if (read.kind !== 'run') return read;
    const { run, dropped, migratedFrom } = read;
    return { kind: 'run', run, dropped, migratedFrom };
  }
}

/**
 * The saved run in records as stored (any format this playground wrote, or junk): pure, so it can
 * be tested on anything. `migrated` holds the records in the current format.
 */
export function readRun(
  found: RawRun,
  lanes = 2,
):
  | Exclude<LoadedRun, { kind: 'run' }>
  | (Extract<LoadedRun, { kind: 'run' }> & { migrated: RawRun }) {
  const unreadable = (reason: string) => ({ kind: 'unreadable' as const, reason });
  if (found.meta === undefined) {
    if (found.steps.length || found.checkpoints.length)
      return unreadable('it has steps but no description of its experiment');
    return { kind: 'none' };
  }
  const version = asRow(found.meta).version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    return unreadable(
      `its format (${String(JSON.stringify(version))}) is not one this playground writes`,
    );
  if (version > SAVED_RUN_VERSION)
    return unreadable(
      `it was saved by a newer version of the playground (format ${version}; this one reads formats 1–${SAVED_RUN_VERSION})`,
    );
  let records = found;
  for (let n = version; n < SAVED_RUN_VERSION; n++) records = MIGRATIONS[n](records);
  const meta = v.safeParse(MetaSchema, records.meta);
  if (!meta.success) return unreadable(`its description is damaged (${meta.issues[0].message})`);
  let dropped = 0;
  const out: StepMetrics[][] = Array.from({ length: lanes }, () => []);
  for (const row of records.steps) {
    const r = asRow(row);
    const m = v.safeParse(StepSchema, r.metrics);
    if (
      Number.isInteger(r.lane) &&
      (r.lane as number) >= 0 &&
      (r.lane as number) < lanes &&
      m.success
    )
      out[r.lane as number].push(m.output as unknown as StepMetrics);
    else dropped++;
  }
  for (const l of out) l.sort((a, b) => a.step - b.step);
  const checkpoints: SavedCheckpoint[] = [];
  for (const row of records.checkpoints) {
    const c = v.safeParse(CheckpointSchema, row);
    if (c.success && c.output.lane < lanes) checkpoints.push(c.output as SavedCheckpoint);
    else dropped++;
  }
  return {
    kind: 'run',
    run: { meta: meta.output as SavedMeta, lanes: out, checkpoints },
    dropped,
    migratedFrom: version < SAVED_RUN_VERSION ? version : null,
    migrated: records,
  };
}
