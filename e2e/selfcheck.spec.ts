import { expect, test } from '@playwright/test';

test('the page finds the WebGPU adapter and every kernel passes its self-check in a worker', async ({
  page,
}, info) => {
  await page.goto('/');
  // The kernel checks live in the Diagnostics section, with a worker of their own.
  await page.getByRole('button', { name: 'Diagnostics' }).click();
  await expect(page.getByRole('heading', { name: 'MENTOR Playground' })).toBeVisible();
  const badge = page.getByRole('status', { name: 'Diagnostics backend' });
  await expect(badge).toHaveText(/^WebGPU · swiftshader$/);

  await page.getByRole('button', { name: 'Self-check' }).click();
  const summary = page.getByRole('status', { name: 'Self-check summary' });
  await expect(summary).toHaveText(/^(\d+) of \1 checks passed$/, { timeout: 150_000 });
  const rows = page.getByRole('table', { name: 'Self-check results' }).locator('tbody tr');
  expect(await rows.count()).toBeGreaterThan(10);
  await expect(rows.filter({ hasText: /fail/ })).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('selfcheck-webgpu.png'), fullPage: true });
});
