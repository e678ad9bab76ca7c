import { expect, test, type Page, type Worker } from '@playwright/test';
import { openPlayground, stepsDone, waitForStep } from './playground.ts';

const KILLS_PER_LANE = 10;

/** The live worker of lane `letter` (workers are named "lane A", "lane B"). */
async function laneWorker(page: Page, letter: 'A' | 'B'): Promise<Worker> {
  let found: Worker | null = null;
  await expect
    .poll(
      async () => {
        for (const w of page.workers()) {
          // A worker that is closing may never answer: ask each for a second at most, so one
          // such worker cannot hold the poll until it times out.
          const name = await Promise.race([
            w.evaluate(() => self.name).catch(() => null),
            new Promise<null>((resolve) => setTimeout(() => resolve(null), 1000)),
          ]);
          if (name === `lane ${letter}`) {
            found = w;
            return true;
          }
        }
        return false;
      },
      { timeout: 60_000, intervals: [100] },
    )
    .toBe(true);
  return found as unknown as Worker;
}

/** The restart notices shown now: which lane, which step failed, where the lane went on from. */
async function restarts(page: Page): Promise<{ lane: string; failed: number; from: number }[]> {
  const text = (await page.getByRole('region', { name: 'Notices' }).textContent()) ?? '';
  const re =
    /(GRPO|GRPO \+ MENTOR): step (\d+) failed \(its worker ended without a word.*?\); it restarted in a fresh worker from its state at step (\d+)/g;
  return [...text.matchAll(re)].map((m) => ({
    lane: m[1],
    failed: Number(m[2]),
    from: Number(m[3]),
  }));
}

test('each lane’s worker closed ten times mid-run: it restarts from its last state, the lanes stay in lockstep', async ({
  page,
}, info) => {
  test.setTimeout(600_000);
  await openPlayground(page, '?preset=quick');
  await page.getByRole('button', { name: 'Play' }).click();
  await waitForStep(page, 2);
  const seen = new Map<string, { lane: string; failed: number; from: number }>();
  for (let round = 0; round < KILLS_PER_LANE; round++) {
    for (const [letter, lane] of [
      ['A', 'GRPO'],
      ['B', 'GRPO + MENTOR'],
    ] as const) {
      const worker = await laneWorker(page, letter);
      const before = await stepsDone(page);
      const known = seen.size;
      // From inside, as a crash would: the page gets no message, only the worker's absence.
      await worker.evaluate(() => self.close()).catch(() => {});
      // Only the latest notices are shown: collect each restart as it comes.
      await expect
        .poll(
          async () => {
            for (const r of await restarts(page)) seen.set(`${r.lane}@${r.failed}`, r);
            return [...seen.values()].filter((r) => r.lane === lane).length;
          },
          { timeout: 60_000, intervals: [100] },
        )
        .toBe(round + 1);
      expect(seen.size).toBe(known + 1);
      // Training goes on after each restart.
      await waitForStep(page, before + 1);
    }
  }
  // At most one lost step per kill: each lane went on from the state after its last step.
  for (const r of seen.values()) expect(r.from, `${r.lane} at step ${r.failed}`).toBe(r.failed);
  const end = (await stepsDone(page)) + 3;
  await waitForStep(page, end);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled();
  // Lockstep: both lanes have every step up to the end, once each.
  const steps = page
    .getByRole('table', { name: 'Latest metrics' })
    .getByRole('row', { name: /^step/ });
  const cells = await steps.getByRole('cell').allTextContents();
  expect(cells[0].replace(/\s*\(.*$/, '')).toBe(cells[1].replace(/\s*\(.*$/, ''));
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('worker-restart.png'), fullPage: true });
});
