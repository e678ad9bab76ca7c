import { describe, expect, it } from 'vitest';
import {
  profileLines,
  renderLines,
  renderWork,
  threadProfiles,
  type ProfileNode,
  type TraceEvent,
} from './trace-profile.ts';

const frame = (functionName: string, url = '', lineNumber = 0) => ({
  functionName,
  url,
  lineNumber,
});

/** A ProfileChunk of profile `id`, logged on thread `tid`. */
const chunk = (
  tid: number,
  id: string,
  nodes: ProfileNode[],
  samples: number[],
  timeDeltas: number[],
): TraceEvent => ({
  ph: 'P',
  name: 'ProfileChunk',
  pid: 1,
  tid,
  id,
  args: { data: { cpuProfile: { nodes, samples }, timeDeltas } },
});

describe("a page's profile from its trace", () => {
  it("sums each thread's self time per function over its profile's chunks", () => {
    const events: TraceEvent[] = [
      { ph: 'M', name: 'thread_name', pid: 1, tid: 10, args: { name: 'CrRendererMain' } },
      { ph: 'M', name: 'thread_name', pid: 1, tid: 20, args: { name: 'DedicatedWorker thread' } },
      { ph: 'P', name: 'Profile', pid: 1, tid: 20, id: '0x2' },
      // The chunks of a profile may be logged on another thread: the Profile event says whose.
      chunk(
        99,
        '0x2',
        [
          { id: 1, callFrame: frame('(root)') },
          { id: 2, parent: 1, callFrame: frame('(idle)') },
          {
            id: 3,
            parent: 1,
            callFrame: frame('matmul', 'http://x/assets/lane.worker-AbC123xy.js', 41),
          },
        ],
        [3, 2, 3],
        [0, 4000, 6000],
      ),
      chunk(
        99,
        '0x2',
        [{ id: 4, parent: 1, callFrame: frame('(garbage collector)') }],
        [4, 3],
        [1000, 2000],
      ),
      { ph: 'P', name: 'Profile', pid: 1, tid: 10, id: '0x1' },
      chunk(
        10,
        '0x1',
        [{ id: 1, callFrame: frame('draw', 'http://x/assets/index.js', 9) }],
        [1, 1],
        [0, 500],
      ),
    ];
    const [worker, main] = threadProfiles(events);
    // Sample i lasts until sample i + 1, across chunks: matmul 4 ms, then 1 ms until the next
    // chunk's first sample; idle (6 ms) left out; the collector 2 ms.
    expect(worker).toEqual({
      thread: 'DedicatedWorker thread [lane.worker.js]',
      busyMs: 7,
      functions: [
        { name: 'matmul (lane.worker-AbC123xy.js:42)', ms: 5 },
        { name: '(garbage collector)', ms: 2 },
      ],
    });
    expect(main).toEqual({
      thread: 'CrRendererMain',
      busyMs: 0.5,
      functions: [{ name: 'draw (index.js:10)', ms: 0.5 }],
    });
    const lines = profileLines([worker, main], 100);
    expect(lines[0]).toBe('  DedicatedWorker thread [lane.worker.js]: busy 7 ms of 100 (7%)');
    expect(lines[1]).toBe('     71.4%       5 ms  matmul (lane.worker-AbC123xy.js:42)');
    // A thread busy for less than a millisecond is left out.
    expect(lines).toHaveLength(3);
  });

  it("sums the page thread's style, layout and paint, with layout's object counts", () => {
    const x = (name: string, tid: number, dur: number, dirty?: number) => ({
      ph: 'X',
      name,
      pid: 1,
      tid,
      dur,
      ...(dirty === undefined
        ? {}
        : { args: { beginData: { dirtyObjects: dirty, totalObjects: 900 } } }),
    });
    const work = renderWork([
      { ph: 'M', name: 'thread_name', pid: 1, tid: 10, args: { name: 'CrRendererMain' } },
      x('Layout', 10, 120_000, 800),
      x('Layout', 10, 2_000, 8),
      x('Paint', 10, 5_000),
      // Another thread's layout is not the page's.
      x('Layout', 11, 999_000, 1),
    ]);
    expect(work).toEqual([
      { name: 'Layout', count: 2, ms: 122, maxMs: 120, dirtyObjects: 800, totalObjects: 900 },
      { name: 'Paint', count: 1, ms: 5, maxMs: 5 },
    ]);
    expect(renderLines(work)[0]).toBe(
      '  page Layout: 122 ms in 2 (at most 120 ms), up to 800 of 900 layout objects dirty',
    );
  });
});
