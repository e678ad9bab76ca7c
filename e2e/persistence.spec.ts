import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { SAVED_RUN_VERSION } from '../src/app/run-store.ts';
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
    /^step,level,method,reward,.*all_fail_frac.*,eval_accuracy_all,events,interventions,intervention_stats,eval_accuracy_levels$/,
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

/** Rewrite the saved run in the page's IndexedDB with `change` (run in the page). */
async function rewriteSavedRun(page: Page, change: 'format 1' | 'format 99'): Promise<void> {
  await page.evaluate(async (change) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('mentor-playground');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const tx = db.transaction(['meta', 'steps', 'checkpoints'], 'readwrite');
    const all = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve) => (r.onsuccess = () => resolve(r.result)));
    const meta = (await all(tx.objectStore('meta').get('current'))) as Record<string, unknown>;
    if (change === 'format 99') {
      tx.objectStore('meta').put({ ...meta, version: 99 }, 'current');
    } else {
      // As the first build saved runs: no skipped_steps, no training state in checkpoints.
      tx.objectStore('meta').put({ ...meta, version: 1 }, 'current');
      for (const row of (await all(tx.objectStore('steps').getAll())) as {
        metrics: Record<string, unknown>;
      }[]) {
        delete row.metrics.skipped_steps;
        tx.objectStore('steps').put(row);
      }
      for (const row of (await all(tx.objectStore('checkpoints').getAll())) as Record<
        string,
        unknown
      >[]) {
        delete row.state;
        tx.objectStore('checkpoints').put(row);
      }
    }
    await new Promise<void>((resolve) => (tx.oncomplete = () => resolve()));
    db.close();
  }, change);
}

async function trainAndPause(page: Page): Promise<number> {
  await openPlayground(page, '?preset=quick');
  await page.getByRole('button', { name: 'Play' }).click();
  await waitForStep(page, 5);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('status', { name: 'Run status' })).toHaveText(/paused$/);
  await page.waitForTimeout(1000);
  return stepsDone(page);
}

test('a run saved in an older format is migrated and resumed, never cleared', async ({ page }) => {
  const done = await trainAndPause(page);
  await rewriteSavedRun(page, 'format 1');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled({ timeout: 60_000 });
  const notices = page.getByRole('region', { name: 'Notices' });
  await expect(notices).toContainText(
    `The saved run was written in format 1; it was migrated to format ${SAVED_RUN_VERSION}.`,
  );
  await expect(notices).toContainText(`training resumes from the checkpoint at step ${done}`);
  expect(await stepsDone(page)).toBe(done);
  await page.getByRole('button', { name: 'Step' }).click();
  await waitForStep(page, done + 1);
});

test('a run saved by a newer version is kept and offered for export; it goes only when discarded', async ({
  page,
}) => {
  await trainAndPause(page);
  await rewriteSavedRun(page, 'format 99');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled({ timeout: 60_000 });
  const notices = page.getByRole('region', { name: 'Notices' });
  await expect(notices).toContainText(
    new RegExp(
      `A saved run could not be resumed: it was saved by a newer version of the playground \\(format 99; this one reads formats 1–${SAVED_RUN_VERSION}\\)\\. It is kept as it is`,
    ),
  );
  expect(await stepsDone(page)).toBe(0);
  // Training here does not write over it.
  await page.getByRole('button', { name: 'Step' }).click();
  await waitForStep(page, 1);
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export the saved run' }).click(),
  ]);
  const saved = JSON.parse(readFileSync(await file.path()).toString());
  expect(saved.meta.version).toBe(99);
  expect(saved.steps.length).toBeGreaterThanOrEqual(10);
  expect(saved.checkpoints[0].bytes.$type).toBe('Uint8Array');
  await page.getByRole('button', { name: 'Discard it' }).click();
  await expect(notices).toContainText(
    'The saved run was discarded; this run is saved from now on.',
  );
});
