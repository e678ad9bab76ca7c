import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { sharedCodeLink } from '../src/app/shared-code.ts';
import { familyEntry } from '../src/tasks/index.ts';
import { openPlayground, setDifficulty, stepsDone, waitForStep } from './playground.ts';

const { hard } = familyEntry('arithmetic').collapse;
const QUERY = '?preset=quick&methods=none,custom';
const LOG = 'GRPO + custom mentor mentor log';

const LENGTH_HINT = `export default {
  name: 'typed-length-hint',
  async plan(batch, ctx) {
    if (ctx.round > 1) return [];
    return batch.groups
      .filter((g) => g.attempts.every((a) => a.reward === 0))
      .map((g) => ({
        group: g.group,
        help: { kind: 'retry', hint: { kind: 'length', length: g.problem.answer.length }, learn: 'unhinted-shaped-drawn' },
        note: 'typed mentor: length ' + g.problem.answer.length + ', document is ' + typeof document,
      }));
  },
};
`;

async function typeCode(page: Page, code: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'Custom mentor code' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  // insertText: as typed, without the editor's bracket closing doubling what is written.
  await page.keyboard.insertText(code);
}

async function step(page: Page, n = 1): Promise<void> {
  for (let i = 0; i < n; i++) {
    const done = await stepsDone(page);
    await page.getByRole('button', { name: 'Step' }).click();
    await waitForStep(page, done + 1);
  }
}

test('a mentor typed into the editor and applied helps its lane; its notes fill the log', async ({
  page,
}) => {
  await openPlayground(page, QUERY);
  await expect(page.getByRole('status', { name: 'Custom mentor status' })).toHaveText(
    /No code applied/,
  );
  await setDifficulty(page, hard);
  await typeCode(page, 'export default {');
  // A syntax error is marked on the page, before anything runs.
  await expect(page.locator('.cm-lint-marker-error').first()).toBeVisible();
  await typeCode(page, LENGTH_HINT);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByLabel('Custom mentor load report')).toHaveText(
    /"typed-length-hint" is loaded/,
  );
  await step(page, 2);
  const rows = page.getByRole('table', { name: LOG }).getByRole('row');
  await expect(rows.nth(1)).toContainText('typed mentor: length');
  // It ran in a worker: no document there.
  await expect(rows.nth(1)).toContainText('document is undefined');
});

test('hostile code costs its step the help with a message; the other lane and the run go on', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await openPlayground(page, QUERY);
  await setDifficulty(page, hard);
  const hostile: [string, RegExp][] = [
    [
      'export default { plan() { throw new Error("boom"); } };',
      /custom plan failed at step \d+: boom/,
    ],
    ['export default { plan() { return 42; } };', /custom plan returned number, not a list/],
    [
      `export default { async plan() {
        try { await fetch('http://127.0.0.1:9/steal'); } catch (e) { throw new Error('fetch refused: ' + e.message); }
        return [];
      } };`,
      /custom plan failed at step \d+: fetch refused/,
    ],
    [
      'export default { plan() { for (;;) {} } };',
      /custom plan failed at step \d+: no answer within 10000 ms/,
    ],
    ['export const nothing = 1;', /custom mentor's code wrong shape/],
  ];
  for (const [code, message] of hostile) {
    await typeCode(page, code);
    await page.getByRole('button', { name: 'Apply' }).click();
    await step(page);
    await expect(page.getByText(message).first()).toBeVisible();
  }
  // Both lanes trained every step.
  const done = await stepsDone(page);
  expect(done).toBe(hostile.length);
  await expect(page.getByRole('heading', { name: 'GRPO', exact: true })).toBeVisible();
  await expect(page.getByText(/stopped/)).toHaveCount(0);
});

test('code in a link is shown and does not run before the person presses Run this code', async ({
  page,
}) => {
  const link = await sharedCodeLink('/', QUERY, LENGTH_HINT);
  await openPlayground(page, link.slice(1));
  await expect(page.getByText(/This link carries code for the custom mentor/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Custom mentor code' })).toContainText(
    'typed-length-hint',
  );
  await expect(page.getByRole('status', { name: 'Custom mentor status' })).toHaveText(
    /No code applied/,
  );
  await setDifficulty(page, hard);
  await step(page, 2);
  await expect(page.getByRole('table', { name: LOG })).toHaveCount(0);
  await expect(page.getByText(/No interventions yet/)).toBeVisible();
  await page.getByRole('button', { name: 'Run this code' }).click();
  await step(page, 2);
  await expect(page.getByRole('table', { name: LOG }).getByRole('row').nth(1)).toContainText(
    'typed mentor: length',
  );
});

test('code loaded from a file is shown and does not run before consent; Download gives it back', async ({
  page,
}) => {
  await openPlayground(page, QUERY);
  await page.getByLabel('Load a .js file').setInputFiles({
    name: 'mine.js',
    mimeType: 'text/javascript',
    buffer: Buffer.from(LENGTH_HINT),
  });
  await expect(page.getByText(/This code came from a file and has not run/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Custom mentor code' })).toContainText(
    'typed-length-hint',
  );
  await setDifficulty(page, hard);
  await step(page, 2);
  await expect(page.getByRole('table', { name: LOG })).toHaveCount(0);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download .js' }).click();
  const file = await (await download).path();
  expect(readFileSync(file, 'utf8')).toContain("name: 'typed-length-hint'");
  await page.getByRole('button', { name: 'Run this code' }).click();
  await step(page, 2);
  await expect(page.getByRole('table', { name: LOG }).getByRole('row').nth(1)).toContainText(
    'typed mentor: length',
  );
});
