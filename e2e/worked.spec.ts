import { expect, test } from '@playwright/test';
import { openPlayground, setDifficulty, waitForStep } from './playground.ts';

test('the worked preset: after the jump the mentor names a broken step of the working and shows no product', async ({
  page,
}) => {
  // Small groups so that a step is quick on SwiftShader; the preset's task, base and lanes.
  await openPlayground(page, '?preset=worked&prompts=4&group_size=4&eval_every=4&eval_size=24');
  await expect(page.getByRole('heading', { name: 'GRPO + MENTOR', exact: true })).toBeVisible();
  await setDifficulty(page, 4);
  await page.getByRole('button', { name: 'Step' }).click();
  await waitForStep(page, 1);

  // Unhinted, the base writes three columns at four digits: every group fails, the mentor reads why.
  const row = page.getByRole('table', { name: 'GRPO + MENTOR mentor log' }).getByRole('row').nth(1);
  await expect(row).toContainText(
    /\d of \d attempts (stop (after \d of the \d columns|before)|skip the carry into|multiply column|add column|carry the wrong digit out of|write|do not write)/,
  );
  await expect(row).toContainText('no character of the answer is shown');

  // The inspector marks the first broken step of a failed answer (plain GRPO's lane keeps them).
  await page.getByRole('button', { name: 'Rollouts of GRPO', exact: true }).click();
  await expect(page.getByLabel('first broken step').first()).toBeVisible();
});
