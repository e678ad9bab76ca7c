// The lanes' backend where the page may choose (`backend=auto`) and the adapter is a hardware one:
// for a model this small a GPU can be slower than the CPU twin (every kernel launch has a latency
// the CPU does not pay), so the page times a step on each and keeps the faster.
import type { Backend } from '../../engine/backend.ts';
import { median } from '../../platform/median.ts';

/** Timed runs of a probe on each backend after its untimed first run, and the time each may take. */
export interface MeasureOptions {
  runs: number;
  /** A backend stops being timed once its timed runs have taken this long (at least one runs). */
  budgetMs: number;
}

/** Two timed runs, at most about a second each backend: a choice within a second or two. */
export const LANE_MEASURE: MeasureOptions = { runs: 2, budgetMs: 1000 };

export interface BackendTiming {
  name: string;
  /** Median milliseconds a probe run; null where the probe failed (`error` says why). */
  ms: number | null;
  error?: string;
}

export interface MeasuredChoice {
  chosen: Backend;
  /** One sentence for the badge: which, and why. */
  why: string;
  timings: BackendTiming[];
}

const fmtMs = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toPrecision(2));

/**
 * Time `probe` on every backend — an untimed first run (it compiles pipelines and allocates),
 * then timed runs as `opts` allows — and keep the fastest by median; a backend whose probe fails
 * is not chosen (while another works). Every backend not chosen is destroyed. `now` is the clock
 * (the tests' fake backends bring their own).
 */
export async function chooseByMeasuring(
  backends: readonly Backend[],
  probe: (be: Backend) => Promise<{ run(): Promise<void>; free(): void }>,
  opts: MeasureOptions = LANE_MEASURE,
  now: () => number = () => performance.now(),
): Promise<MeasuredChoice> {
  if (backends.length === 0) throw new Error('chooseByMeasuring: no backend to choose from');
  const timings: BackendTiming[] = [];
  for (const be of backends) {
    try {
      const p = await probe(be);
      try {
        await p.run();
        const times: number[] = [];
        let spent = 0;
        while (times.length < opts.runs && (times.length === 0 || spent < opts.budgetMs)) {
          const t0 = now();
          await p.run();
          times.push(now() - t0);
          spent += times[times.length - 1];
        }
        timings.push({ name: be.name, ms: median(times) });
      } finally {
        p.free();
      }
    } catch (e) {
      timings.push({ name: be.name, ms: null, error: (e as Error).message });
    }
  }
  const timed = timings.map((t, i) => ({ t, i })).filter((x) => x.t.ms !== null);
  const best = timed.length
    ? timed.reduce((a, b) => ((b.t.ms as number) < (a.t.ms as number) ? b : a))
    : { t: timings[timings.length - 1], i: backends.length - 1 };
  const chosen = backends[best.i];
  for (const be of backends) if (be !== chosen) be.destroy();
  const others = timings
    .filter((_, i) => i !== best.i)
    .map((t) => (t.ms === null ? `${t.name} failed (${t.error})` : `${t.name} ${fmtMs(t.ms)} ms`))
    .join(', ');
  const why =
    best.t.ms === null
      ? `no backend ran a step here (${others || best.t.error}); the last one is kept`
      : others
        ? `the faster here: a step took ${fmtMs(best.t.ms)} ms on it against ${others} (measured at start; ?backend= forces one)`
        : `the only one here: a step took ${fmtMs(best.t.ms)} ms on it`;
  return { chosen, why, timings };
}
