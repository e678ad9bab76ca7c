import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { sharedCodeLink } from '../src/app/shared-code.ts';
import { familyEntry } from '../src/tasks/index.ts';
import { PORT } from './ports.ts';
import {
  openPlayground,
  setDifficulty,
  stepsDone,
  typeInEditor,
  waitForStep,
} from './playground.ts';

const { hard } = familyEntry('arithmetic').collapse;
const QUERY = '?preset=quick&methods=none,custom';
const LOG = 'GRPO + custom mentor mentor log';
/** The e2e site under another name: another origin, same server. */
const OTHER_ORIGIN = `http://localhost:${PORT}`;

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
  await typeInEditor(page, 'Custom mentor code', 'export default {');
  // A syntax error is marked on the page, before anything runs.
  await expect(page.locator('.cm-lint-marker-error').first()).toBeVisible();
  // Applied anyway, it does not load: said with its place, and the status claims nothing more.
  await page.getByRole('button', { name: 'Apply' }).click();
  const status = page.getByRole('status', { name: 'Custom mentor status' });
  await expect(page.getByLabel('Custom mentor load report')).toHaveText(
    /does not load: .* \(near line 1, column 17\)\. The lane trains as plain GRPO/,
  );
  await expect(status).toHaveText(/^Not running: the applied code cannot be used/);
  await typeInEditor(page, 'Custom mentor code', LENGTH_HINT);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByLabel('Custom mentor load report')).toHaveText(
    /"typed-length-hint" is loaded/,
  );
  await expect(status).toHaveText(/^Applied and loaded/);
  // The notices that said earlier code could not run are gone with it.
  const notices = page.getByRole('region', { name: 'Notices' });
  await expect(notices).toContainText('"typed-length-hint" is loaded');
  await expect(notices.getByText(/has no code to run yet|does not load/)).toHaveCount(0);
  await step(page, 2);
  const rows = page.getByRole('table', { name: LOG }).getByRole('row');
  await expect(rows.nth(1)).toContainText('typed mentor: length');
  // It ran in a worker: no document there.
  await expect(rows.nth(1)).toContainText('document is undefined');

  // The lane's export carries the code it ran.
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page
      .getByRole('group', { name: 'Export from GRPO + custom mentor' })
      .getByRole('button', { name: 'Metrics JSON' })
      .click(),
  ]);
  const exported = JSON.parse(readFileSync(await json.path(), 'utf8'));
  expect(exported.method).toBe('custom');
  expect(exported.mentorCode).toContain("name: 'typed-length-hint'");

  // A reload resumes the run (saved on pause) with the code the person applied, still helping.
  await page.getByRole('button', { name: 'Play' }).click();
  await waitForStep(page, (await stepsDone(page)) + 1);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('status', { name: 'Run status' })).toHaveText(/paused$/);
  await page.waitForTimeout(1000);
  const paused = await stepsDone(page);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled({ timeout: 60_000 });
  await expect(page.getByRole('status', { name: 'Custom mentor status' })).toHaveText(/^Applied/);
  await expect(page.getByRole('textbox', { name: 'Custom mentor code' })).toContainText(
    'typed-length-hint',
  );
  expect(await stepsDone(page)).toBe(paused);
  const before = await rows.count();
  await step(page, 2);
  await expect.poll(() => rows.count()).toBeGreaterThan(before);
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
      // Another origin that answers (the test checks it does): only the policy refuses it.
      `export default { async plan() {
        let refused = 'no violation';
        self.addEventListener('securitypolicyviolation', (e) => (refused = e.effectiveDirective));
        try { await fetch('${OTHER_ORIGIN}/', { mode: 'no-cors' }); } catch (e) {
          await new Promise((r) => setTimeout(r, 200));
          throw new Error('fetch refused by ' + refused);
        }
        throw new Error('fetch went through');
      } };`,
      /custom plan failed at step \d+: fetch refused by connect-src/,
    ],
    [
      'export default { plan() { for (;;) {} } };',
      /custom plan failed at step \d+: no answer within 10000 ms/,
    ],
    [
      // Memory without bound (a few hundred MB before the deadline ends the worker).
      `export default { plan() {
        const hog = [];
        for (;;) { hog.push(new Array(1e5).fill(hog.length)); for (let i = 0; i < 1e7; i++); }
      } };`,
      /custom plan failed at step \d+: no answer within 10000 ms/,
    ],
    [
      'export default { plan(batch) { return batch.groups.map((g) => ({ group: g.group, help: { kind: "retry", learn: "as-sampled" }, note: "x".repeat(1e6) })); } };',
      /rejected: its note is 1000000 characters long \(at most 2000\)/,
    ],
    ['export const nothing = 1;', /custom mentor's code has the wrong shape: it exports/],
  ];
  // The origin the fetch above asks is up: it would answer without the policy.
  expect((await fetch(`${OTHER_ORIGIN}/`)).ok).toBe(true);
  for (const [code, message] of hostile) {
    await typeInEditor(page, 'Custom mentor code', code);
    await page.getByRole('button', { name: 'Apply' }).click();
    await step(page);
    await expect(page.getByText(message).first()).toBeVisible();
  }
  // Both lanes trained every step.
  const done = await stepsDone(page);
  expect(done).toBe(hostile.length);
  await expect(page.getByRole('heading', { name: 'GRPO', exact: true })).toBeVisible();
  await expect(page.getByText(/stopped/)).toHaveCount(0);
  // The trainer's notes name every fault.
  const notes = page.getByRole('list', { name: "GRPO + custom mentor trainer's notes" });
  for (const [, message] of hostile.slice(0, -1)) await expect(notes).toContainText(message);
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
  // A reload before consent shows the code again, still not run.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled({ timeout: 60_000 });
  await expect(page.getByText(/This link carries code for the custom mentor/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run this code' })).toBeVisible();
  await setDifficulty(page, hard);
  await step(page, 2);
  await expect(page.getByRole('table', { name: LOG })).toHaveCount(0);
  await expect(page.getByText(/No interventions yet/)).toBeVisible();
  await page.getByRole('button', { name: 'Run this code' }).click();
  await step(page, 2);
  await expect(page.getByRole('table', { name: LOG }).getByRole('row').nth(1)).toContainText(
    'typed mentor: length',
  );
  // Once run, the code leaves the address (the saved run keeps it).
  expect(page.url()).not.toContain('mentor_code=');
});

test('Link with this code makes a link that opens the code, unrun, in another tab', async ({
  page,
  context,
}) => {
  await openPlayground(page, QUERY);
  await typeInEditor(
    page,
    'Custom mentor code',
    LENGTH_HINT.replace('typed-length-hint', 'shared-by-link'),
  );
  await page.getByRole('button', { name: 'Link with this code' }).click();
  const link = await page.getByRole('textbox', { name: 'Link with this code' }).inputValue();
  expect(link).toContain('mentor_code=');
  const other = await context.newPage();
  await openPlayground(other, link.slice(link.indexOf('?')));
  await expect(other.getByText(/This link carries code for the custom mentor/)).toBeVisible();
  await expect(other.getByRole('textbox', { name: 'Custom mentor code' })).toContainText(
    'shared-by-link',
  );
  await expect(other.getByRole('status', { name: 'Custom mentor status' })).toHaveText(
    /No code applied/,
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
