// The opt-in LLM mentor in the built site, offline: the generated fixture models are served by
// the site itself, Transformers.js runs with remote models off, and no request leaves 127.0.0.1.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { StepMetrics } from '../src/rl/metrics.ts';
import { familyEntry } from '../src/tasks/index.ts';
import { openPlayground, setDifficulty, stepsDone, waitForStep } from './playground.ts';
import { PORT } from './ports.ts';

const ORIGIN = `http://127.0.0.1:${PORT}`;
/** What only the LLM mentor fetches: model files, ONNX Runtime, the Transformers.js chunk. */
const LLM_FILES = /\/models\/|ort-wasm|\/assets\/runtime-/;
const LOG = 'GRPO + MENTOR mentor log';

/** Requests that leave the site's origin (a blob: URL has its creator's origin; data: none). */
function offsite(urls: string[]): string[] {
  return urls.filter((u) => !u.startsWith('data:') && new URL(u).origin !== ORIGIN);
}

/** Every request the page and its workers (nested ones included) make. */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.context().on('request', (r) => urls.push(r.url()));
  return urls;
}

async function switchOn(page: Page, model: string): Promise<void> {
  const panel = page.getByRole('region', { name: 'LLM mentor (optional)' });
  await panel.getByRole('radio', { name: new RegExp(`^${model}`) }).check();
  await panel.getByRole('button', { name: `Switch on: ${model}` }).click();
}

/** Play until the mentor log has a row matching `row`, then pause. */
async function playUntilRow(page: Page, row: RegExp): Promise<void> {
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(
    page.getByRole('table', { name: LOG }).getByRole('row').filter({ hasText: row }).first(),
  ).toBeVisible({ timeout: 90_000 });
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled();
}

test('with the opt-in off nothing of the LLM is fetched, sizes are shown first, and the mentor works on rules', async ({
  page,
}) => {
  const urls = recordRequests(page);
  await openPlayground(page, '?preset=quick');
  const panel = page.getByRole('region', { name: 'LLM mentor (optional)' });
  await expect(panel).toContainText(
    'Runs on: WASM (CPU) — the WebGPU adapter is a software one (swiftshader), slower than WASM',
  );
  const smol = panel.getByRole('radio', { name: /^SmolLM2-135M-Instruct/ });
  await expect(smol).toBeChecked();
  await expect(panel.getByText(/^SmolLM2-135M-Instruct — /)).toContainText(
    'Download: 202 MB (q4: onnx/model_q4.onnx 200 MB + tokenizer and config 2.1 MB) from huggingface.co/HuggingFaceTB/SmolLM2-135M-Instruct.',
  );
  await expect(panel.getByText(/^Qwen2.5-0.5B-Instruct — /)).toContainText(
    'Download: 519 MB (q8: onnx/model_quantized.onnx 512 MB',
  );
  await expect(
    panel.getByRole('button', { name: 'Download and switch on: SmolLM2-135M-Instruct' }),
  ).toBeEnabled();
  await expect(panel.getByRole('status', { name: 'LLM mentor status' })).toHaveText('Off.');

  await setDifficulty(page, familyEntry('arithmetic').collapse.hard);
  for (let i = 0; i < 3; i++) {
    await page.getByRole('button', { name: 'Step' }).click();
    await waitForStep(page, i + 1);
  }
  const rows = page.getByRole('table', { name: LOG }).getByRole('row');
  await expect(rows.nth(1)).toBeVisible();
  await expect(rows.filter({ hasText: 'LLM agent' })).toHaveCount(0);
  await expect(rows.nth(1).getByRole('cell').last()).toHaveText('Rules');
  await expect(page.getByRole('region', { name: 'GRPO + MENTOR LLM agent' })).toHaveCount(0);
  // The nested mentor worker's own script was seen, so its requests are recorded too.
  expect(urls.some((u) => /intervention\.worker-/.test(u))).toBe(true);
  expect(urls.filter((u) => LLM_FILES.test(u))).toEqual([]);
  expect(offsite(urls)).toEqual([]);
});

test('with the valid fixture the log shows LLM-attributed rows and its sentence, offline', async ({
  page,
}, info) => {
  const urls = recordRequests(page);
  await openPlayground(page, '?preset=quick');
  // Slow the weights down a little, so the progress bar can be seen while they arrive.
  await page.route('**/models/mentor-fixture-valid/onnx/model.onnx', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await switchOn(page, 'Test fixture: valid hints');
  await expect(page.getByRole('progressbar', { name: 'LLM download progress' })).toBeVisible();
  const status = page.getByRole('status', { name: 'LLM mentor status' });
  await expect(status).toHaveText(
    'On: Test fixture: valid hints in GRPO + MENTOR, running on WASM (CPU).',
  );
  await expect(page.getByRole('progressbar', { name: 'LLM download progress' })).toHaveCount(0);

  await setDifficulty(page, familyEntry('arithmetic').collapse.hard);
  await playUntilRow(page, /LLM agent/);
  const row = page
    .getByRole('table', { name: LOG })
    .getByRole('row')
    .filter({ hasText: 'LLM agent' })
    .first();
  await expect(row).toContainText('hint c1');
  await expect(row).toContainText('The units column carries, and the attempts forget it.');
  const readout = page.getByRole('region', { name: 'GRPO + MENTOR LLM agent' });
  await expect(readout).toContainText(/hints valid:\s*\d+%/);
  await expect(readout).toContainText(/LLM hints used:\s*\d+% of interventions/);
  await expect(readout).toContainText(/latency:\s*[\d.]+ ms per call · [\d.]+ ms per intervention/);
  info.annotations.push({ type: 'llm readout', description: (await readout.textContent()) ?? '' });

  // The exports carry the LLM's figures (intervention_stats) and its records (author "llm").
  const exports = page.getByRole('group', { name: 'Export from GRPO + MENTOR' });
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    exports.getByRole('button', { name: 'Metrics JSON' }).click(),
  ]);
  const doc = JSON.parse(readFileSync(await json.path()).toString()) as { metrics: StepMetrics[] };
  const last = doc.metrics[doc.metrics.length - 1];
  expect(Object.keys(last.intervention_stats ?? {}).sort()).toEqual([
    'llm_calls',
    'llm_ms_per_call',
    'llm_ms_per_intervention',
    'llm_no_reply',
    'llm_used_share',
    'llm_valid_rate',
  ]);
  expect(doc.metrics.flatMap((m) => m.interventions).some((r) => r.author === 'llm')).toBe(true);
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    exports.getByRole('button', { name: 'Metrics CSV' }).click(),
  ]);
  expect(readFileSync(await csv.path()).toString()).toMatch(/""llm_used_share"":/);
  await page.screenshot({ path: info.outputPath('llm-valid-fixture.png'), fullPage: true });

  expect(urls.some((u) => u.includes('/models/mentor-fixture-valid/onnx/model.onnx'))).toBe(true);
  expect(urls.some((u) => /ort-wasm.*\.wasm$/.test(u))).toBe(true);
  expect(offsite(urls)).toEqual([]);
});

test('with the garbage fixture every LLM hint is rejected, the rules help instead, and training goes on', async ({
  page,
}) => {
  const urls = recordRequests(page);
  await openPlayground(page, '?preset=quick');
  await switchOn(page, 'Test fixture: garbage');
  await expect(page.getByRole('status', { name: 'LLM mentor status' })).toHaveText(
    /^On: Test fixture: garbage/,
  );
  await setDifficulty(page, familyEntry('arithmetic').collapse.hard);
  await playUntilRow(page, /LLM hint rejected/);
  const rows = page.getByRole('table', { name: LOG }).getByRole('row');
  const rejected = rows.filter({ hasText: 'LLM hint rejected' }).first();
  await expect(rejected).toContainText('LLM hint rejected: unparseable');
  await expect(rejected.getByRole('cell').last()).toHaveText(/^Rules\s*\(LLM hint rejected\)$/);
  await expect(rows.filter({ hasText: 'LLM agent' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'GRPO + MENTOR LLM agent' })).toContainText(
    /hints valid:\s*0%/,
  );
  // Training goes on.
  const at = await stepsDone(page);
  await page.getByRole('button', { name: 'Step' }).click();
  await waitForStep(page, at + 1);
  expect(offsite(urls)).toEqual([]);
});

test('a missing or corrupt model gives a clear message and the mentor keeps working on rules', async ({
  page,
}) => {
  await openPlayground(page, '?preset=quick');
  const panel = page.getByRole('region', { name: 'LLM mentor (optional)' });
  const status = panel.getByRole('status', { name: 'LLM mentor status' });
  await page.route('**/models/mentor-fixture-valid/**', (route) =>
    route.fulfill({ status: 404, body: 'not here' }),
  );
  await switchOn(page, 'Test fixture: valid hints');
  await expect(panel.getByRole('alert')).toHaveText(
    /^GRPO \+ MENTOR: Language model "mentor-fixture-valid" not found in .*models\/.* — the mentor goes on with its rules$/,
  );
  await expect(status).toHaveText('Off — the mentor works on its rules.');

  await page.unroute('**/models/mentor-fixture-valid/**');
  await page.route('**/models/mentor-fixture-valid/onnx/model.onnx', (route) =>
    route.fulfill({ status: 200, body: 'this is not an onnx file' }),
  );
  await switchOn(page, 'Test fixture: valid hints');
  await expect(panel.getByRole('alert')).toHaveText(
    /could not be loaded \(corrupt, unsupported or unreachable files\).* — the mentor goes on with its rules$/,
  );
  await expect(status).toHaveText('Off — the mentor works on its rules.');

  await setDifficulty(page, familyEntry('arithmetic').collapse.hard);
  for (let i = 0; i < 2; i++) {
    await page.getByRole('button', { name: 'Step' }).click();
    await waitForStep(page, i + 1);
  }
  const rows = page.getByRole('table', { name: LOG }).getByRole('row');
  await expect(rows.nth(1).getByRole('cell').last()).toHaveText('Rules');
  await expect(rows.filter({ hasText: 'LLM' })).toHaveCount(0);
});
