import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { latestMetric, openPlayground, stepsDone, waitForStep } from './playground.ts';

test('a run survives a reload: charts come back and training resumes', async ({ page }) => {
  await openPlayground(page, '?preset=quick');
  await page.getByRole('button', { name: 'Play' }).click();
  await waitForStep(page, 6);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('status', { name: 'Run status' })).toHaveText(/paused$/);
  const done = await stepsDone(page);
  const reward = await latestMetric(page, 'reward', 1);
  // Pausing saves both lanes' checkpoints; give IndexedDB a moment.
  await page.waitForTimeout(1000);

  await page.reload();
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled({ timeout: 60_000 });
  await expect(page.getByRole('region', { name: 'Notices' })).toContainText(
    `training resumes from the checkpoint at step ${done}`,
  );
  expect(await stepsDone(page)).toBe(done);
  expect(await latestMetric(page, 'reward', 1)).toBe(reward);
  await page.getByRole('button', { name: 'Step' }).click();
  await waitForStep(page, done + 1);

  // "Start over" forgets it.
  await page.getByRole('button', { name: 'Start over' }).click();
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled();
  expect(await stepsDone(page)).toBe(0);
});

test('export metrics and the policy; a bad import changes nothing, a good one restarts both lanes', async ({
  page,
}, info) => {
  await openPlayground(page, '?preset=quick');
  const step = page.getByRole('button', { name: 'Step' });
  for (let i = 0; i < 3; i++) {
    await step.click();
    await waitForStep(page, i + 1);
  }
  const mentor = page.getByRole('group', { name: 'Export from GRPO + MENTOR' });

  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    mentor.getByRole('button', { name: 'Metrics CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toBe('mentor-arithmetic-B-mentor-seed1-step3.csv');
  const lines = readFileSync(await csv.path())
    .toString()
    .trim()
    .split('\r\n');
  expect(lines[0]).toMatch(
    /^step,level,method,reward,.*all_fail_frac.*,events,interventions,intervention_stats$/,
  );
  expect(lines).toHaveLength(4);

  const [json] = await Promise.all([
    page.waitForEvent('download'),
    mentor.getByRole('button', { name: 'Metrics JSON' }).click(),
  ]);
  const doc = JSON.parse(readFileSync(await json.path()).toString());
  expect(doc.metrics).toHaveLength(3);
  expect(doc.config.preset).toBe('quick');

  const [policy] = await Promise.all([
    page.waitForEvent('download'),
    mentor.getByRole('button', { name: 'Policy (.safetensors)' }).click(),
  ]);
  expect(policy.suggestedFilename()).toMatch(/\.safetensors$/);
  const policyPath = info.outputPath('policy.safetensors');
  await policy.saveAs(policyPath);

  const input = page.getByLabel('Import checkpoint (.safetensors)');
  await input.setInputFiles({
    name: 'broken.safetensors',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('this is not a checkpoint, not even close'),
  });
  await expect(page.getByRole('region', { name: 'Notices' }).getByRole('alert')).toContainText(
    /Import of "broken.safetensors" failed: .+\. Nothing was changed\./,
  );
  expect(await stepsDone(page)).toBe(3);

  await input.setInputFiles(policyPath);
  // The exported policy keeps the shipped base's architecture options.
  await expect(page.getByRole('region', { name: 'Notices' })).toContainText(
    /Imported "policy.safetensors" \([\d,]+ parameters, digit places 1–10, no RoPE, arithmetic\): both lanes restarted from it\./,
  );
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled();
  expect(await stepsDone(page)).toBe(0);
  await expect(page.getByText('imported policy.safetensors')).toBeVisible();
  await step.click();
  await waitForStep(page, 1);
});
