import { expect, test } from '@playwright/test';
import { openPlayground, waitForStep } from './playground.ts';

test('on a narrow screen the lanes stack, and the controls work from the keyboard', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlayground(page, '?preset=quick');
  const play = page.getByRole('button', { name: 'Play' });
  await play.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeFocused();
  // Visible focus.
  const outline = await page
    .getByRole('button', { name: 'Pause' })
    .evaluate((el) => getComputedStyle(el).outlineWidth);
  expect(Number.parseFloat(outline)).toBeGreaterThanOrEqual(2);
  await waitForStep(page, 2);
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();

  const slider = page.getByRole('slider', { name: 'Difficulty' });
  const before = Number(await slider.inputValue());
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveValue(String(before + 1));

  // The lanes stack, and nothing is wider than the screen.
  const a = await page.getByRole('region', { name: 'GRPO', exact: true }).boundingBox();
  const b = await page.getByRole('region', { name: 'GRPO + MENTOR', exact: true }).boundingBox();
  expect(a && b && b.y >= a.y + a.height).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);
  await page.screenshot({ path: info.outputPath('narrow-390x844.png'), fullPage: true });
});

test('at 1280×800 the lanes sit side by side; every control has an accessible name', async ({
  page,
}, info) => {
  await openPlayground(page, '?preset=quick');
  const a = await page.getByRole('region', { name: 'GRPO', exact: true }).boundingBox();
  const b = await page.getByRole('region', { name: 'GRPO + MENTOR', exact: true }).boundingBox();
  expect(a && b && Math.abs(a.y - b.y) < 2 && b.x > a.x).toBe(true);
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('button, select, input, [role="slider"]')]
      .filter((el) => {
        const e = el as HTMLElement;
        const labelled =
          e.getAttribute('aria-label') ||
          e.getAttribute('aria-labelledby') ||
          (e as HTMLInputElement).labels?.length ||
          (e.tagName === 'BUTTON' && e.textContent?.trim());
        return !labelled && e.offsetParent !== null;
      })
      .map((e) => e.outerHTML.slice(0, 80)),
  );
  expect(unnamed).toEqual([]);
  await page.screenshot({ path: info.outputPath('wide-1280x800.png'), fullPage: false });
});

test('hide flags remove controls for embedding in a course page', async ({ page }) => {
  await openPlayground(page, '?preset=quick&hide=method,task,speed,preset,diagnostics,import');
  await expect(page.getByRole('combobox', { name: 'Method of lane A' })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Task' })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Speed' })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Preset' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Diagnostics' })).toHaveCount(0);
  await expect(page.getByLabel('Import checkpoint (.safetensors)')).toHaveCount(0);
  await expect(page.getByRole('slider', { name: 'Difficulty' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();
});
