// Helpers for the playground specs: everything goes through roles and labels.
import { expect, type Page } from '@playwright/test';

/** Open the playground and wait until both lanes are ready to train. */
export async function openPlayground(page: Page, query = '?preset=quick'): Promise<void> {
  await page.goto(`./${query}`);
  await expect(page.getByRole('heading', { name: 'MENTOR Playground' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled({ timeout: 60_000 });
}

/** Steps both lanes have done, from the run status line. */
export async function stepsDone(page: Page): Promise<number> {
  const text = (await page.getByRole('status', { name: 'Run status' }).textContent()) ?? '';
  const m = /Step (\d+)/.exec(text);
  return m ? Number(m[1]) : -1;
}

export async function waitForStep(page: Page, step: number, timeout = 120_000): Promise<void> {
  await expect
    .poll(() => stepsDone(page), { timeout, intervals: [250] })
    .toBeGreaterThanOrEqual(step);
}

/** The latest value of a metric for lane 0 (A) or 1 (B), from the "Latest metrics" table. */
export async function latestMetric(page: Page, metric: string, lane: 0 | 1): Promise<number> {
  const row = page
    .getByRole('table', { name: 'Latest metrics' })
    .getByRole('row', { name: new RegExp(`^${metric}\\b`) });
  const text = (await row.getByRole('cell').nth(lane).textContent()) ?? '';
  const v = Number.parseFloat(text);
  return Number.isFinite(v) ? v : NaN;
}

/** Move the difficulty slider with the keyboard to `level`. */
export async function setDifficulty(page: Page, level: number): Promise<void> {
  const slider = page.getByRole('slider', { name: 'Difficulty' });
  await slider.focus();
  const now = Number(await slider.inputValue());
  const key = level > now ? 'ArrowRight' : 'ArrowLeft';
  for (let i = 0; i < Math.abs(level - now); i++) await page.keyboard.press(key);
  await expect(slider).toHaveValue(String(level));
}

/** Replaces the text of the code editor named `editor` ("Custom mentor code", "Custom task code"). */
export async function typeInEditor(page: Page, editor: string, code: string): Promise<void> {
  await page.getByRole('textbox', { name: editor }).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  // insertText: as typed, without the editor's bracket closing doubling what is written.
  await page.keyboard.insertText(code);
}

/**
 * On a host that sends no isolation headers the service-worker shim reloads the page once, first
 * visit: wait until that is over. A look that lands on the reload counts as not yet isolated.
 */
export async function waitForIsolation(page: Page): Promise<void> {
  const isolated = () => page.evaluate(() => crossOriginIsolated).catch(() => false);
  await expect.poll(isolated, { timeout: 30_000 }).toBe(true);
}
