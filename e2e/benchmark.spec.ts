import { expect, test } from '@playwright/test';

test('the Benchmark button times WebGPU and its CPU twin in the worker and shows a table', async ({
  page,
}, info) => {
  await page.goto('/');
  // The kernel checks live in the Diagnostics section, with a worker of their own.
  await page.getByRole('button', { name: 'Diagnostics' }).click();
  await expect(page.getByRole('status', { name: 'Diagnostics backend' })).toHaveText(/^WebGPU/);

  await page.getByRole('button', { name: 'Benchmark' }).click();
  const table = page.getByRole('table', { name: 'Benchmark results' });
  await expect(table).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('status', { name: 'Benchmark status' })).toHaveText(
    /^Done: CPU and WebGPU/,
  );
  await expect(
    page.getByText(/^Measured: tiny model .*quick configuration: batch \d+/),
  ).toBeVisible();

  const headers = table.getByRole('columnheader');
  await expect(headers).toHaveText(['Figure', 'CPU', /^WebGPU/, 'WebGPU/CPU']);
  const trainStep = table.getByRole('row', { name: /^training step, ms/ });
  await expect(trainStep.getByRole('cell')).toHaveText([/^[\d,.]+$/, /^[\d,.]+$/, /^[\d.,]+×$/]);
  // Both prompt lengths, with and without the cache, and the growth between them.
  await expect(table.getByRole('row', { name: /KV cache, ms\/token/ })).toHaveCount(2);
  await expect(table.getByRole('row', { name: /no cache, ms\/token/ })).toHaveCount(2);
  await expect(table.getByRole('row', { name: /^ms\/token at prompt \d+ ÷ at \d+/ })).toHaveCount(
    2,
  );
  // A GRPO batch's sampling, shared prompts prefilled once and each alone.
  await expect(table.getByRole('row', { name: /^GRPO sampling, separate ÷ shared/ })).toBeVisible();
  await page.screenshot({ path: info.outputPath('benchmark-webgpu.png'), fullPage: true });
});
