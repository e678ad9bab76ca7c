import { expect, test } from '@playwright/test';
import { familyEntry } from '../src/tasks/index.ts';
import {
  latestMetric,
  openPlayground,
  setDifficulty,
  stepsDone,
  waitForStep,
} from './playground.ts';

const { easy, hard } = familyEntry('arithmetic').collapse;

test('raising the difficulty collapses both lanes; the mentor steps in and its log fills', async ({
  page,
}, info) => {
  await openPlayground(page, '?preset=quick');
  // On SwiftShader the lanes choose the CPU twin by themselves, and say why.
  await expect(page.getByRole('status', { name: 'Compute backend' })).toHaveText(
    /^CPU, chosen: the WebGPU adapter is a software one \(swiftshader\)/,
  );
  await expect(page.getByRole('heading', { name: 'GRPO', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'GRPO + MENTOR', exact: true })).toBeVisible();
  const slider = page.getByRole('slider', { name: 'Difficulty' });
  await expect(slider).toHaveValue(String(easy));

  await page.getByRole('button', { name: 'Play' }).click();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await waitForStep(page, 8);
  const before = [
    await latestMetric(page, 'all_fail_frac', 0),
    await latestMetric(page, 'all_fail_frac', 1),
  ];
  await page.screenshot({ path: info.outputPath('1-easy-level.png'), fullPage: true });

  await setDifficulty(page, hard);
  await expect(slider).toHaveAttribute('aria-valuetext', new RegExp(`^level ${hard}:`));
  const jump = await stepsDone(page);
  await waitForStep(page, jump + 4);
  // The URL records the change, so sharing it replays the jump.
  await expect
    .poll(() => new URL(page.url()).searchParams.get('schedule'))
    .toMatch(new RegExp(`^0:${easy},\\d+:${hard}$`));

  // Collapse: the groups where every answer fails go up (to ≥ 0.75) in both lanes.
  for (const lane of [0, 1] as const) {
    await expect
      .poll(() => latestMetric(page, 'all_fail_frac', lane), { timeout: 90_000, intervals: [500] })
      .toBeGreaterThanOrEqual(Math.max(0.75, before[lane]));
  }
  // The charts mark the change and say so in their text alternative.
  await expect(page.getByRole('figure', { name: 'Groups without learning signal' })).toContainText(
    new RegExp(`Difficulty changed at step \\d+ \\(level ${hard}\\)`),
  );
  await expect(page.getByRole('img', { name: /^Chart: Mean reward/ })).toBeVisible();

  // The MENTOR lane's log fills; the GRPO lane has none.
  const log = page.getByRole('table', { name: 'GRPO + MENTOR mentor log' });
  await expect(log.getByRole('row').nth(1)).toBeVisible();
  expect(await log.getByRole('row').count()).toBeGreaterThan(2);
  await expect(log.getByRole('row').nth(1).getByRole('cell').first()).toHaveText(/^\d+/);
  await expect(page.getByRole('table', { name: 'GRPO mentor log' })).toHaveCount(0);
  expect(await latestMetric(page, 'hinted_frac', 1)).toBeGreaterThan(0);
  expect(await latestMetric(page, 'hinted_frac', 0)).toBe(0);

  // The rollout inspector: prompt, answers shaded by token probability, reward, advantage.
  await page.getByRole('button', { name: 'Rollouts of GRPO + MENTOR' }).click();
  await expect(page.getByRole('status', { name: 'GRPO + MENTOR rollouts status' })).toHaveText(
    /\d+ groups of step \d+/,
  );
  const group = page.getByRole('article', { name: 'Group 0' }).first();
  await expect(group).toContainText('prompt');
  const answers = group.getByRole('table', { name: 'Group 0 answers' });
  await expect(answers.getByRole('row')).toHaveCount(5); // header + G = 4
  await expect(answers.locator('.tok').first()).toHaveAttribute('title', /p=\d\.\d{3}$/);
  await expect(answers.getByText(/^Answer .*Token probabilities:/).first()).toBeAttached();

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('status', { name: 'Run status' })).toHaveText(/paused$/);
  await page.screenshot({ path: info.outputPath('2-collapse-and-mentor.png'), fullPage: true });
});
