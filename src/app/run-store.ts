// The current run in IndexedDB, so it survives a reload: the experiment (as its URL query, read
// back through the URL codec), every lane's step metrics (appended as they come), and the latest
// checkpoint of each lane with its step, to resume training from. One run is kept; a new run
// replaces it. Everything read back is checked; nothing here throws to the caller.
import * as v from 'valibot';
import type { StepMetrics } from '../rl/metrics.ts';

const DB_NAME = 'mentor-playground';
const DB_VERSION = 1;
const META = 'meta';
const STEPS = 'steps';
const CHECKPOINTS = 'checkpoints';
const CURRENT = 'current';

export interface SavedMeta {
  version: 1;
  /** encodeUrl(config) of the run. */
  query: string;
  savedAt: number;
  /** A label for what the lanes started from (the shipped base or an imported file). */
  base: string;
}

export interface SavedCheckpoint {
  lane: number;
  /** Steps the lane had done when the checkpoint was taken: it resumes at this step. */
  step: number;
  bytes: Uint8Array;
}

export interface SavedRun {
  meta: SavedMeta;
  lanes: StepMetrics[][];
  checkpoints: SavedCheckpoint[];
}

const num = v.nullable(v.number());
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
/** Enough of StepMetrics that the page can draw and list it without surprises. */
const StepSchema = v.looseObject({
  step: v.pipe(v.number(), v.integer(), v.minValue(0)),
  level: v.pipe(v.number(), v.integer()),
  method: v.string(),
  reward: v.number(),
  reward_std: v.number(),
  frac_reward_zero_std: v.number(),
  all_fail_frac: v.number(),
  hinted_frac: v.number(),
  hint_strength: v.number(),
  rescue_rate: v.number(),
  completion_length: v.number(),
  entropy: v.number(),
  kl: num,
  clip_ratio: v.number(),
  grad_norm: num,
  loss: v.number(),
  tokens_per_s: v.number(),
  eval_accuracy: v.optional(v.number()),
  eval_accuracy_prev: v.optional(v.number()),
  interventions: v.array(InterventionSchema),
  events: v.array(v.string()),
});
const MetaSchema = v.object({
  version: v.literal(1),
  query: v.pipe(v.string(), v.maxLength(4096)),
  savedAt: v.number(),
  base: v.pipe(v.string(), v.maxLength(300)),
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

  /** The saved run, checked; null when there is none. Malformed steps are dropped. */
  async load(lanes = 2): Promise<{ run: SavedRun; dropped: number } | null> {
    const tx = this.db.transaction([META, STEPS, CHECKPOINTS], 'readonly');
    const [rawMeta, rawSteps, rawCheckpoints] = await Promise.all([
      req(tx.objectStore(META).get(CURRENT)),
      req(tx.objectStore(STEPS).getAll()),
      req(tx.objectStore(CHECKPOINTS).getAll()),
    ]);
    const meta = v.safeParse(MetaSchema, rawMeta);
    if (!meta.success) return null;
    let dropped = 0;
    const out: StepMetrics[][] = Array.from({ length: lanes }, () => []);
    for (const row of rawSteps as unknown[]) {
      const r = row as { lane?: unknown; metrics?: unknown };
      const m = v.safeParse(StepSchema, r.metrics);
      if (typeof r.lane === 'number' && r.lane >= 0 && r.lane < lanes && m.success)
        out[r.lane].push(m.output as unknown as StepMetrics);
      else dropped++;
    }
    for (const l of out) l.sort((a, b) => a.step - b.step);
    const checkpoints: SavedCheckpoint[] = [];
    for (const row of rawCheckpoints as unknown[]) {
      const c = row as Partial<SavedCheckpoint>;
      if (
        typeof c.lane === 'number' &&
        typeof c.step === 'number' &&
        Number.isInteger(c.step) &&
        c.step >= 0 &&
        c.bytes instanceof Uint8Array
      )
        checkpoints.push({ lane: c.lane, step: c.step, bytes: c.bytes });
    }
    return { run: { meta: meta.output as SavedMeta, lanes: out, checkpoints }, dropped };
  }
}
