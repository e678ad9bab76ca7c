// `npm run bench:page`: the built page at its bare URL in headless Chromium, played as a lecture
// would play it — Play, the difficulty raised after the easy steps — timed from the jump until
// the MENTOR lane's unhinted eval reaches 0.5 and 0.8, with the steps per second before and
// during the rescue, once with threads=1 and once with the page's pool of threads; then, in a fresh page, a trace of rescue steps and where their time goes
// (each thread's busy time and its functions by self time: cli/page-bench/trace-profile.ts).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../scripts/chromium.ts';
import { familyEntry } from '../src/tasks/index.ts';
import { runCli, type Flag } from './flags.ts';
import { startPreviewServer } from './page-bench/preview-server.ts';
import {
  profileLines,
  renderLines,
  renderWork,
  threadProfiles,
  type TraceEvent,
} from './page-bench/trace-profile.ts';

const FLAGS: Flag[] = [
  {
    name: 'port',
    kind: 'int',
    default: 4181,
    min: 1,
    max: 65535,
    help: 'port of the preview server',
  },
  {
    name: 'build',
    kind: 'bool',
    default: true,
    help: 'build the page first (--build=false: use dist/ as it is)',
  },
  {
    name: 'query',
    kind: 'string',
    default: '',
    help: 'URL query after the bare URL, e.g. "?backend=cpu" (default: none)',
  },
  {
    name: 'before',
    kind: 'int',
    default: 20,
    min: 5,
    help: 'steps at the easy level before the jump',
  },
  {
    name: 'timeout',
    kind: 'int',
    default: 600,
    min: 10,
    help: 'seconds to wait for 0.8 after the jump',
  },
  {
    name: 'profile-after',
    kind: 'int',
    default: 10,
    min: 0,
    help: 'steps after the jump the trace starts',
  },
  {
    name: 'profile-seconds',
    kind: 'number',
    default: 5,
    min: 0,
    help: 'seconds of rescue steps traced (0: no profile)',
  },
  {
    name: 'timed',
    kind: 'bool',
    default: true,
    help: 'time the jump to 0.5 and 0.8 (--timed=false: the profile alone)',
  },
  {
    name: 'trace-out',
    kind: 'string',
    help: 'also write the Chrome trace of the profile to this file',
  },
  { name: 'json', kind: 'bool', default: false, help: 'also print the figures as one JSON line' },
];

const ARGS = ['--enable-unsafe-webgpu', ...CHROMIUM_ARGS];

/** The lanes' step count, from the run status line (-1 before the first). */
async function stepsDone(page: Page): Promise<number> {
  const text = (await page.getByRole('status', { name: 'Run status' }).textContent()) ?? '';
  const m = /Step (\d+)/.exec(text);
  return m ? Number(m[1]) : -1;
}

/** The latest value of a metric of lane `lane` (0: A, 1: B) in the "Latest metrics" table. */
async function latestMetric(page: Page, metric: string, lane: 0 | 1): Promise<number> {
  const row = page
    .getByRole('table', { name: 'Latest metrics' })
    .getByRole('row', { name: new RegExp(`^${metric}\\b`) });
  return Number.parseFloat((await row.getByRole('cell').nth(lane).textContent()) ?? '');
}

async function waitFor(what: string, timeoutS: number, ok: () => Promise<boolean>): Promise<void> {
  const end = performance.now() + timeoutS * 1000;
  while (!(await ok())) {
    if (performance.now() > end)
      throw new Error(`timed out after ${timeoutS} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Open the bare page, Play, and raise the difficulty after `before` steps; the jump's time and step. */
async function playToJump(page: Page, url: string, before: number) {
  await page.goto(url);
  const play = page.getByRole('button', { name: 'Play' });
  await play.waitFor({ state: 'visible', timeout: 120_000 });
  await waitFor('the lanes to be ready', 120, () => play.isEnabled());
  const backend = (await page.getByRole('status', { name: 'Compute backend' }).textContent()) ?? '';
  await play.click();
  await waitFor('step 5', 120, async () => (await stepsDone(page)) >= 5);
  const [t5, s5] = [performance.now(), await stepsDone(page)];
  await waitFor(`step ${before}`, 300, async () => (await stepsDone(page)) >= before);
  const [tb, sb] = [performance.now(), await stepsDone(page)];
  const slider = page.getByRole('slider', { name: 'Difficulty' });
  const hard = familyEntry('arithmetic').collapse.hard;
  await slider.focus();
  const now = Number(await slider.inputValue());
  for (let i = now; i < hard; i++) await page.keyboard.press('ArrowRight');
  const jump = { t: performance.now(), step: await stepsDone(page) };
  return { backend, beforeStepsPerS: (sb - s5) / ((tb - t5) / 1000), jump };
}

async function timedRun(browser: Browser, url: string, a: Record<string, number>) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const { backend, beforeStepsPerS, jump } = await playToJump(page, url, a.before);
  const reached: Record<string, { s: number; steps: number }> = {};
  await waitFor('the MENTOR lane at 0.8', a.timeout, async () => {
    const acc = await latestMetric(page, 'eval_accuracy', 1);
    for (const th of ['0.5', '0.8'])
      if (!reached[th] && acc >= Number(th))
        reached[th] = {
          s: (performance.now() - jump.t) / 1000,
          steps: (await stepsDone(page)) - jump.step,
        };
    return reached['0.8'] !== undefined;
  });
  await page.close();
  const during = reached['0.8'].steps / reached['0.8'].s;
  return { backend, beforeStepsPerS, duringStepsPerS: during, jumpStep: jump.step, reached };
}

async function profiledRun(
  browser: Browser,
  url: string,
  a: Record<string, number>,
  traceOut: string | undefined,
) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const { jump } = await playToJump(page, url, a.before);
  const from = jump.step + a['profile-after'];
  await waitFor(`step ${from}`, a.timeout, async () => (await stepsDone(page)) >= from);
  const s0 = await stepsDone(page);
  await browser.startTracing(page, {
    categories: ['disabled-by-default-v8.cpu_profiler', 'v8', 'devtools.timeline', '__metadata'],
  });
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, a['profile-seconds'] * 1000));
  const trace = await browser.stopTracing();
  const tracedMs = performance.now() - t0;
  const s1 = await stepsDone(page);
  await page.close();
  if (traceOut) writeFileSync(traceOut, trace);
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  return {
    steps: [s0 - jump.step, s1 - jump.step],
    tracedMs,
    profiles: threadProfiles(events),
    render: renderWork(events),
  };
}

await runCli(
  'npm run bench:page --',
  'The built page at its bare URL in headless Chromium: from the jump to the MENTOR lane at 0.5 and 0.8, steps/s before and during the rescue, and a profile of rescue steps.',
  FLAGS,
  async (f) => {
    const a = Object.fromEntries(
      Object.entries(f).filter(([, v]) => typeof v === 'number'),
    ) as Record<string, number>;
    if (
      f.build &&
      spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], { stdio: 'inherit' }).status !== 0
    )
      throw new Error('the build failed');
    const exe = chromiumPath();
    if (!exe) throw new Error("no Chromium: install Debian's chromium or set CHROMIUM_PATH");
    const server = await startPreviewServer(a.port);
    try {
      const browser = await chromium.launch({ executablePath: exe, args: ARGS });
      try {
        const url = `${server.url}${String(f.query)}`;
        console.log(
          `page bench: ${url} (${browser.version()}), ${a.before} easy steps, then the jump`,
        );
        // The rescue on one thread, then with the pool (the page's default), on the same build
        // and seed: the same steps (the pool's sums are one thread's), timed side by side.
        const oneUrl = `${url}${url.includes('?') ? '&' : '?'}threads=1`;
        const timed = f.timed
          ? { one: await timedRun(browser, oneUrl, a), pool: await timedRun(browser, url, a) }
          : null;
        const t = timed?.pool ?? null;
        if (timed) {
          for (const [label, run] of [
            ['one thread (threads=1)', timed.one],
            ['the pool', timed.pool],
          ] as const) {
            console.log(`${label}: backend ${run.backend}`);
            console.log(`  before the jump: ${run.beforeStepsPerS.toFixed(1)} steps/s`);
            for (const th of ['0.5', '0.8'])
              console.log(
                `  jump to ${th}: ${run.reached[th].s.toFixed(1)} s (${run.reached[th].steps} steps)`,
              );
            console.log(
              `  during the rescue: ${run.duringStepsPerS.toFixed(1)} steps/s (jump to 0.8)`,
            );
          }
          console.log(
            `threads speed-up: ${(timed.pool.duringStepsPerS / timed.one.duringStepsPerS).toFixed(2)}× (steps/s during the rescue, the pool over one thread)`,
          );
          console.log(
            `jump to 0.8: ${timed.pool.reached['0.8'].s.toFixed(1)} s (${timed.pool.reached['0.8'].steps} steps) with the pool, ${timed.one.reached['0.8'].s.toFixed(1)} s (${timed.one.reached['0.8'].steps} steps) on one thread`,
          );
        }
        const traceOut = f['trace-out'] === undefined ? undefined : String(f['trace-out']);
        const profile =
          a['profile-seconds'] > 0 ? await profiledRun(browser, url, a, traceOut) : null;
        if (profile) {
          console.log(
            `profile of rescue steps ${profile.steps[0]}–${profile.steps[1]} after the jump (${(profile.tracedMs / 1000).toFixed(1)} s traced, a fresh page):`,
          );
          for (const line of profileLines(profile.profiles, profile.tracedMs)) console.log(line);
          for (const line of renderLines(profile.render)) console.log(line);
        }
        if (f.json)
          console.log(
            JSON.stringify({
              ...(timed && {
                threads_speed_up: timed.pool.duringStepsPerS / timed.one.duringStepsPerS,
                one_thread: {
                  backend: timed.one.backend,
                  during_steps_per_s: timed.one.duringStepsPerS,
                  jump_to_08_s: timed.one.reached['0.8'].s,
                  jump_to_08_steps: timed.one.reached['0.8'].steps,
                },
              }),
              ...(t && {
                backend: t.backend,
                before_steps_per_s: t.beforeStepsPerS,
                during_steps_per_s: t.duringStepsPerS,
                jump_to_05_s: t.reached['0.5'].s,
                jump_to_05_steps: t.reached['0.5'].steps,
                jump_to_08_s: t.reached['0.8'].s,
                jump_to_08_steps: t.reached['0.8'].steps,
              }),
              profile: profile && {
                steps: profile.steps,
                traced_ms: profile.tracedMs,
                render: profile.render,
                threads: profile.profiles.map((p) => ({
                  thread: p.thread,
                  busy_ms: p.busyMs,
                  top: p.functions.slice(0, 8),
                })),
              },
            }),
          );
      } finally {
        await browser.close();
      }
    } finally {
      await server.stop();
    }
  },
);
