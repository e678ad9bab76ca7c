import { expect, test } from '@playwright/test';
import { openPlayground, waitForStep } from './playground.ts';

test('each rival runs in a lane, and its log says what it put in the failed groups', async ({
  page,
}) => {
  // Straight to the hard level: every group fails, so both rivals help from the first step.
  await openPlayground(page, '?preset=quick&methods=offpolicy,refine&seed=3&schedule=0:4');
  await expect(
    page.getByRole('heading', { name: 'GRPO + off-policy reference', exact: true }),
  ).toBeVisible();
  await expect(
    page.getByRole('heading', { name: 'GRPO + critique refinement', exact: true }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Step' }).click();
  await waitForStep(page, 1);

  const written = page.getByRole('table', { name: 'GRPO + off-policy reference mentor log' });
  await expect(written.getByRole('row').nth(1)).toContainText(/Put the reference answer \d+/);

  // The critique quotes a wrong answer back with its first wrong digit marked (or says it is wrong).
  const critiqued = page.getByRole('table', { name: 'GRPO + critique refinement mentor log' });
  const row = critiqued.getByRole('row').nth(1);
  await expect(row).toContainText(/hint x\d*_?\d*/);
  await expect(row).toContainText('Showed the failed answer back with a critique');

  // The inspector marks the refinement that joined the group.
  await page.getByRole('button', { name: 'Rollouts of GRPO + critique refinement' }).click();
  await expect(
    page.getByText('sampled with the help, learned whole without it').first(),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Rollouts of GRPO + off-policy reference' }).click();
  await expect(page.getByText('written by the intervention, not sampled').first()).toBeVisible();
});
