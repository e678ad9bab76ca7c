// A page that explains itself in a lecture (issue 56): the reading guide, legends that tell every
// line apart with their latest values, a mentor log in plain words that fits a phone and a laptop
// without sideways scrolling or words broken in two, an inspector that opens on what the step
// learned from, and no alarm where nothing is wrong.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { openPlayground, stepsDone, waitForStep } from './playground.ts';

const LOG = 'GRPO + MENTOR mentor log';

/** How far a box's content runs past its width, in pixels (0: none). */
function overflow(box: Locator): Promise<number> {
  return box.evaluate((el) => el.scrollWidth - el.clientWidth);
}

/** Words of a box's prose (its notation and problems aside) that a line break splits in two. */
function splitWords(box: Locator): Promise<string[]> {
  return box.evaluate((root) => {
    const split: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement?.closest('.code')) continue;
      for (const m of (n.textContent ?? '').matchAll(/[A-Za-z]{2,12}/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const lines = new Set([...r.getClientRects()].map((q) => Math.round(q.top)));
        if (lines.size > 1) split.push(m[0]);
      }
    }
    return split;
  });
}

/** Every chart and the MENTOR lane's log fit the screen's width, and no word breaks in two. */
async function fits(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width + 1,
  );
  // Polled: the charts follow a new width when the resize observer has run.
  const log = page.getByRole('region', { name: `${LOG}, scrollable` });
  await expect.poll(() => overflow(log)).toBeLessThanOrEqual(1);
  expect(await splitWords(page.getByRole('table', { name: LOG }))).toEqual([]);
  const charts = page.getByRole('region', { name: 'Charts' }).getByRole('figure');
  await expect(charts).toHaveCount(5);
  for (const chart of await charts.all())
    await expect.poll(() => overflow(chart)).toBeLessThanOrEqual(1);
}

test('after the jump, the mentor log and the charts fit 1280×800 and 390×844; legends tell every line apart', async ({
  page,
}, info) => {
  test.setTimeout(300_000);
  // The jump at step 4: the mentor helps from there.
  await openPlayground(page, '?preset=quick&schedule=0:3,4:4');
  await page.getByRole('button', { name: 'Play' }).click();
  await waitForStep(page, 4);
  await expect
    .poll(() => page.getByRole('table', { name: LOG }).getByRole('row').count(), {
      timeout: 120_000,
    })
    .toBeGreaterThan(4);
  await waitForStep(page, (await stepsDone(page)) + 2);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled();
  await fits(page, 1280);

  // The log in plain words first, the hint's notation after them.
  const row = page.getByRole('table', { name: LOG }).getByRole('row').nth(1);
  await expect(row.getByRole('cell').nth(1)).toHaveText(
    /^\s*(Round \d, still failing: )?\d+ of \d+ \w+ .*problem/s,
  );
  await expect(row.getByRole('cell').nth(1)).toContainText(/Re-attempts: \d+ of \d+ right\./);

  // Six lines of two colours, each drawn in the legend with its own stroke, with its latest value.
  const evalChart = page.getByRole('figure', { name: 'Unhinted eval accuracy' });
  const strokes = await evalChart
    .locator('figcaption svg line')
    .evaluateAll((lines) =>
      lines.map((l) => `${l.getAttribute('stroke')} ${l.getAttribute('stroke-dasharray') ?? ''}`),
    );
  expect(strokes).toHaveLength(6);
  expect(new Set(strokes).size).toBe(6);
  await expect(evalChart.locator('figcaption')).toContainText(/^Latest:/);
  await expect(evalChart.getByRole('listitem').first()).toHaveText(
    /GRPO · eval\s*\d\.\d{3} \(step \d+\)/,
  );
  await expect(page.getByRole('figure', { name: 'Groups without learning signal' })).toContainText(
    'Dashed near 1 before the jump: nearly every answer is right',
  );

  // The inspector opens on a group of the level being trained, read the usual way too.
  await page.getByRole('button', { name: 'Rollouts of GRPO + MENTOR' }).click();
  const first = page
    .getByRole('region', { name: 'GRPO + MENTOR rollout inspector' })
    .getByRole('article')
    .first();
  await expect(first).toContainText('usual order:');
  await expect(first).not.toContainText('replayed from an easier level');
  await expect(page.getByRole('region', { name: 'GRPO + MENTOR rollout inspector' })).toContainText(
    'Numbers are written units digit first',
  );

  await page.screenshot({ path: info.outputPath('reading-1280x800.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('region', { name: 'GRPO', exact: true })).toBeVisible();
  await fits(page, 390);
  await page.screenshot({ path: info.outputPath('reading-390x844.png'), fullPage: true });
});

test('the reading guide says how to read the page, and hide=help takes it away', async ({
  page,
}) => {
  await openPlayground(page, '?preset=quick');
  const guide = page.getByRole('region', { name: 'How to read this' });
  await expect(guide.getByRole('button', { name: 'How to read this' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await expect(guide).toContainText('Numbers are written units digit first');
  await expect(guide).toContainText('near 1 because nearly every answer is right');
  // The quick preset's 4 × 4 with one prompt replayed: 12 unhinted answers a step.
  await expect(guide).toContainText(
    'At 12 unhinted answers a step, a step holds a lucky right answer with a chance of',
  );
  await expect(guide).toContainText('on 4 of 10 seeds, 775–875 steps after the jump');
  // A CPU chosen because it is faster here is no fault: said plainly, not in a warning's tone.
  const badge = page.getByRole('status', { name: 'Compute backend' });
  await expect(badge).toHaveText(/^CPU, chosen: the WebGPU adapter is a software one/);
  await expect(badge).not.toHaveCSS('color', 'rgb(138, 75, 0)');

  await openPlayground(page, '?preset=quick&hide=help');
  await expect(page.getByRole('region', { name: 'How to read this' })).toHaveCount(0);
});

test('on a custom task before its warm-up the page waits without alarm, and no preset claims arithmetic', async ({
  page,
}) => {
  await page.goto('./?preset=quick&task=custom');
  await expect(page.getByRole('status', { name: 'Run status' })).toHaveText(
    /^Waiting: Write or pick a task/,
  );
  const badge = page.getByRole('status', { name: 'Compute backend' });
  await expect(badge).toHaveText('Waiting for a base for your task');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Preset' })).toHaveValue('');
  await expect(page.getByRole('combobox', { name: 'Preset' })).toHaveAccessibleDescription(
    /^No preset: the lanes train on your own task/,
  );

  await page.goto('./?preset=quick&methods=none,custom');
  await expect(page.getByRole('combobox', { name: 'Preset' })).toHaveAccessibleDescription(
    'Started from the preset “Quick (slow machines, tests)”; changed since: lane B runs GRPO + custom mentor.',
  );
});
