// The lanes' CPU twin on a pool of threads where the page is cross-origin isolated: served with
// COOP/COEP (vite preview), on a static host through the service-worker shim, and without either.
import { expect, test, type Page } from '@playwright/test';
import { waitForIsolation, waitForStep } from './playground.ts';
import { SUBPATH_URL } from './ports.ts';

const badge = (page: Page) => page.getByRole('status', { name: 'Compute backend' });

/** Three steps on the quick preset: the lanes train, whatever their threads. */
async function trainThreeSteps(page: Page): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await page.getByRole('button', { name: 'Step' }).click();
    await waitForStep(page, i + 1);
  }
}

test('served with the isolation headers, the lanes run a pool of threads and say so', async ({
  page,
}) => {
  await page.goto('./?preset=quick');
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await expect(badge(page)).toHaveText(/^CPU, chosen: .* · \d+ threads$/);
  await trainThreeSteps(page);

  // threads=1 forces one thread, and says it was asked for.
  await page.goto('./?preset=quick&threads=1');
  await expect(badge(page)).toHaveText(/· one thread \(threads=1 asked for\)$/);
});

test('on a static host without headers, the service-worker shim isolates the page', async ({
  page,
}) => {
  await page.goto(`${SUBPATH_URL}?preset=quick`);
  // The shim registers, then reloads the page once, under its headers.
  await waitForIsolation(page);
  await expect(badge(page)).toHaveText(/ · \d+ threads$/);
  await trainThreeSteps(page);
});

test.describe('where no service worker may run', () => {
  test.use({ serviceWorkers: 'block' });

  test('without the headers the lanes run on one thread and say why', async ({ page }) => {
    await page.goto(`${SUBPATH_URL}?preset=quick`);
    await expect(badge(page)).toHaveText(
      / · one thread \(the page is not cross-origin isolated, so memory cannot be shared between threads\)$/,
    );
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    await trainThreeSteps(page);
  });
});
