import { expect, test } from '@playwright/test';

test('without WebGPU the page says it fell back to the CPU, says why, and the self-check passes', async ({
  page,
}, info) => {
  await page.goto('/');
  // The kernel checks live in the Diagnostics section, with a worker of their own.
  await page.getByRole('button', { name: 'Diagnostics' }).click();
  // The lanes say they fell back to the CPU, and why.
  await expect(page.getByRole('status', { name: 'Compute backend' })).toHaveText(
    /^CPU fallback: .*(adapter|WebGPU)/,
  );
  const badge = page.getByRole('status', { name: 'Diagnostics backend' });
  await expect(badge).toHaveText(/^CPU fallback: .*(adapter|WebGPU)/);

  await page.getByRole('button', { name: 'Self-check' }).click();
  const summary = page.getByRole('status', { name: 'Self-check summary' });
  await expect(summary).toHaveText(/^(\d+) of \1 checks passed$/, { timeout: 150_000 });
  await page.screenshot({ path: info.outputPath('selfcheck-cpu-fallback.png'), fullPage: true });
});
