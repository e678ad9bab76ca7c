import { expect, test } from '@playwright/test';
import { familyEntry } from '../src/tasks/index.ts';
import { openPlayground, setDifficulty, stepsDone, waitForStep } from './playground.ts';

test('on WebGPU a lost device shows a notice and the lane resumes at the step it lost', async ({
  page,
}, info) => {
  const { hard } = familyEntry('arithmetic').collapse;
  await openPlayground(page, '?preset=quick&backend=webgpu');
  await expect(page.getByRole('status', { name: 'Compute backend' })).toHaveText(/^WebGPU/);
  await page.getByRole('button', { name: 'Play' }).click();
  await waitForStep(page, 2, 150_000);
  // A live difficulty change before the loss must survive the resume.
  await setDifficulty(page, hard);
  const jump = await stepsDone(page);

  await page.getByRole('button', { name: 'Diagnostics' }).click();
  const lose = page.getByRole('button', { name: 'Lose the GPU device of lane A' });
  await expect(lose).toBeEnabled();
  await lose.click();
  await expect(page.getByRole('region', { name: 'Notices' })).toContainText(
    /GRPO: the GPU device was lost \(destroyed.*\)\. Resuming at step \d+, from the state the lane had there\./,
    { timeout: 60_000 },
  );
  // Training goes on, on a new device, and replays the difficulty change.
  await waitForStep(page, jump + 2, 150_000);
  await expect(page.getByRole('status', { name: 'Compute backend' })).toHaveText(/^WebGPU/);
  const laneA = page
    .getByRole('table', { name: 'Latest metrics' })
    .getByRole('row', { name: /^step/ })
    .getByRole('cell')
    .first();
  await expect(laneA).toHaveText(new RegExp(`\\(level ${hard}\\)$`));
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.screenshot({ path: info.outputPath('device-loss.png'), fullPage: true });
});
