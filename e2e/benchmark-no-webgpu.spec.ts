import { expect, test } from '@playwright/test';

test('without WebGPU the benchmark runs on the CPU fallback alone, without ratios', async ({
  page,
}) => {
  await page.goto('/');
  // The kernel checks live in the Diagnostics section, with a worker of their own.
  await page.getByRole('button', { name: 'Diagnostics' }).click();
  await expect(page.getByRole('status', { name: 'Diagnostics backend' })).toHaveText(
    /^CPU fallback/,
  );

  await page.getByRole('button', { name: 'Benchmark' }).click();
  const table = page.getByRole('table', { name: 'Benchmark results' });
  await expect(table).toBeVisible({ timeout: 60_000 });
  await expect(table.getByRole('columnheader')).toHaveText(['Figure', 'CPU']);
  await expect(table.getByRole('row', { name: /^training step, ms/ })).toBeVisible();
});
