// Where a page's time goes, read off a Chrome trace with V8's sampling profiler on
// (`disabled-by-default-v8.cpu_profiler`): for each thread that ran JavaScript (the page, each
// lane's worker, each mentor's worker), the time it was busy and its functions by self time.

/** A node of a CPU profile: a call frame under its parent. */
export interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url?: string; lineNumber?: number };
}

/** The fields of a trace event this reads. */
export interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  id?: string;
  args?: {
    name?: string;
    data?: {
      cpuProfile?: {
        nodes?: ProfileNode[];
        samples?: number[];
      };
      timeDeltas?: number[];
    };
  };
}

export interface FunctionTime {
  /** "name (file:line)", or V8's own: (garbage collector), (program). */
  name: string;
  ms: number;
}

export interface ThreadProfile {
  thread: string;
  /** Sampled time not idle. */
  busyMs: number;
  /** Its functions by self time, the most first. */
  functions: FunctionTime[];
}

/** A script URL's file name, without its folders or query. */
const fileOf = (url: string) => url.split('/').pop()?.split('?')[0] ?? url;

function frameName(f: { functionName: string; url?: string; lineNumber?: number }): string {
  if (!f.url) return f.functionName || '(anonymous)';
  return `${f.functionName || '(anonymous)'} (${fileOf(f.url)}:${(f.lineNumber ?? 0) + 1})`;
}

/**
 * Each profiled thread's busy time and its functions' self times. A sample's time is the delta
 * to the next sample, the next chunk's first included; `(idle)` and `(root)` are not busy. Threads are named by the trace's
 * thread_name metadata (a worker's by its script where a frame tells it).
 */
export function threadProfiles(events: readonly TraceEvent[]): ThreadProfile[] {
  const names = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name)
      names.set(`${e.pid}:${e.tid}`, e.args.name);
  // A profile's chunks carry its id; the Profile event says which thread it is.
  const threadOf = new Map<string, string>();
  for (const e of events)
    if (e.name === 'Profile' && e.id !== undefined) threadOf.set(e.id, `${e.pid}:${e.tid}`);
  const byThread = new Map<
    string,
    {
      frames: Map<number, string>;
      self: Map<string, number>;
      scripts: Set<string>;
      /** The last sample so far: the next delta is its time. */
      last: string | null;
    }
  >();
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || e.id === undefined) continue;
    const key = threadOf.get(e.id) ?? `${e.pid}:${e.tid}`;
    let t = byThread.get(key);
    if (!t)
      byThread.set(
        key,
        (t = { frames: new Map(), self: new Map(), scripts: new Set(), last: null }),
      );
    const profile = e.args?.data?.cpuProfile;
    for (const n of profile?.nodes ?? []) {
      t.frames.set(n.id, frameName(n.callFrame));
      const file = n.callFrame.url ? fileOf(n.callFrame.url) : '';
      if (/worker/i.test(file)) t.scripts.add(file.replace(/-[\w-]{6,}\.js$/, '.js'));
    }
    const samples = profile?.samples ?? [];
    const deltas = e.args?.data?.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      if (t.last !== null) t.self.set(t.last, (t.self.get(t.last) ?? 0) + (deltas[i] ?? 0));
      t.last = t.frames.get(samples[i]) ?? '(unknown)';
    }
  }
  const out: ThreadProfile[] = [];
  for (const [key, t] of byThread) {
    const functions = [...t.self.entries()]
      .filter(([name]) => name !== '(idle)' && name !== '(root)')
      .map(([name, us]) => ({ name, ms: us / 1000 }))
      .sort((a, b) => b.ms - a.ms);
    const busyMs = functions.reduce((n, f) => n + f.ms, 0);
    const base = names.get(key) ?? key;
    const thread = t.scripts.size > 0 ? `${base} [${[...t.scripts].sort().join(', ')}]` : base;
    out.push({ thread, busyMs, functions });
  }
  return out.sort((a, b) => b.busyMs - a.busyMs);
}

/** The profiles as lines: each thread's busy time and share of the traced time, its top functions. */
export function profileLines(
  profiles: readonly ThreadProfile[],
  tracedMs: number,
  top = 8,
): string[] {
  const lines: string[] = [];
  for (const p of profiles) {
    if (p.busyMs < 1) continue;
    lines.push(
      `  ${p.thread}: busy ${p.busyMs.toFixed(0)} ms of ${tracedMs.toFixed(0)} (${((100 * p.busyMs) / tracedMs).toFixed(0)}%)`,
    );
    for (const f of p.functions.slice(0, top))
      lines.push(
        `    ${((100 * f.ms) / p.busyMs).toFixed(1).padStart(5)}%  ${f.ms.toFixed(0).padStart(6)} ms  ${f.name}`,
      );
  }
  return lines;
}

/** The renderer's own work on the page's thread, by the timeline's names (not JavaScript). */
const RENDER_EVENTS = ['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize'] as const;

export interface RenderWork {
  name: (typeof RENDER_EVENTS)[number];
  count: number;
  ms: number;
  maxMs: number;
  /** Layout only: the most objects one layout had dirty, and in all. */
  dirtyObjects?: number;
  totalObjects?: number;
}

/**
 * What the page's main thread (CrRendererMain) spent on style, layout and paint: the part of its
 * time a JavaScript profile shows as "(program)". Needs the `devtools.timeline` category.
 */
export function renderWork(
  events: readonly (TraceEvent & {
    dur?: number;
    args?: { beginData?: { dirtyObjects?: number; totalObjects?: number } };
  })[],
): RenderWork[] {
  const main = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  return RENDER_EVENTS.map((name) => {
    const of = events.filter(
      (e) => e.ph === 'X' && e.name === name && main.has(`${e.pid}:${e.tid}`),
    );
    const ms = of.map((e) => (e.dur ?? 0) / 1000);
    const w: RenderWork = {
      name,
      count: of.length,
      ms: ms.reduce((a, b) => a + b, 0),
      maxMs: ms.length ? Math.max(...ms) : 0,
    };
    if (name === 'Layout' && of.length) {
      w.dirtyObjects = Math.max(...of.map((e) => e.args?.beginData?.dirtyObjects ?? 0));
      w.totalObjects = Math.max(...of.map((e) => e.args?.beginData?.totalObjects ?? 0));
    }
    return w;
  }).filter((w) => w.count > 0);
}

/** The render work as lines under the profile. */
export function renderLines(work: readonly RenderWork[]): string[] {
  return work.map(
    (w) =>
      `  page ${w.name}: ${w.ms.toFixed(0)} ms in ${w.count} (at most ${w.maxMs.toFixed(0)} ms)${w.totalObjects !== undefined ? `, up to ${w.dirtyObjects} of ${w.totalObjects} layout objects dirty` : ''}`,
  );
}
