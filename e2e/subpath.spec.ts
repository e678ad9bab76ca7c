import { readdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { familyEntry } from '../src/tasks/index.ts';
import { setDifficulty, waitForIsolation, waitForStep } from './playground.ts';
import { SUBPATH_URL } from './ports.ts';

test('the static build works under a sub-path: page, workers, mentor worker and checkpoints', async ({
  page,
}) => {
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(`${SUBPATH_URL}?preset=quick`);
  // The service-worker shim reloads the page once, isolated, before anything is done in it.
  await waitForIsolation(page);
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled({ timeout: 60_000 });
  // At the hard level every group fails, so the mentor has work.
  await setDifficulty(page, familyEntry('arithmetic').collapse.hard);
  for (let i = 0; i < 3; i++) {
    await page.getByRole('button', { name: 'Step' }).click();
    await waitForStep(page, i + 1);
  }
  // The mentor (a worker inside the lane worker) answered: the log has rows.
  await expect(
    page.getByRole('table', { name: 'GRPO + MENTOR mentor log' }).getByRole('row').nth(1),
  ).toBeVisible();
  expect(new URL(page.url()).pathname).toBe(new URL(SUBPATH_URL).pathname);
  expect(failed).toEqual([]);

  // The optional LLM mentor finds its model files and ONNX Runtime under the sub-path too.
  await page.getByRole('radio', { name: /^Test fixture: valid hints/ }).check();
  await page.getByRole('button', { name: 'Switch on: Test fixture: valid hints' }).click();
  await expect(page.getByRole('status', { name: 'LLM mentor status' })).toHaveText(
    /^On: Test fixture: valid hints in GRPO \+ MENTOR/,
  );
  expect(failed).toEqual([]);

  // What the optional LLM mentor would fetch is there too: ONNX Runtime's files (addressed
  // relative to the chunk that loads them) and the model fixtures.
  const ort = readdirSync('dist/assets').filter((f) => /^ort-wasm.*\.(wasm|mjs)$/.test(f));
  expect(ort.length).toBeGreaterThanOrEqual(2);
  for (const path of [
    ...ort.map((f) => `assets/${f}`),
    'models/mentor-fixture-valid/config.json',
  ]) {
    const r = await page.request.head(`${SUBPATH_URL}${path}`);
    expect(r.status(), path).toBe(200);
  }
});
