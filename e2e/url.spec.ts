import { expect, test } from '@playwright/test';
import { presetConfig } from '../src/app/presets.ts';
import { decodeUrl } from '../src/app/url-state.ts';
import { openPlayground, setDifficulty, waitForStep } from './playground.ts';

test('the URL holds the whole experiment: opening it again restores it', async ({
  page,
  context,
}) => {
  await openPlayground(
    page,
    '?preset=quick&methods=static,mentor&seed=7&schedule=0:3,3:4&eval_every=3&hide=speed',
  );
  await expect(
    page.getByRole('heading', { name: 'GRPO + static hints', exact: true }),
  ).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Method of lane A' })).toHaveValue('static');
  await expect(page.getByRole('combobox', { name: 'Speed' })).toHaveCount(0);
  await expect(page.getByRole('slider', { name: 'Difficulty' })).toHaveValue('3');
  // No notice: the URL was clean.
  await expect(page.getByRole('region', { name: 'Notices' }).getByRole('status')).toHaveCount(0);

  // The recorded schedule replays: at step 3 the difficulty goes to 4 by itself.
  const step = page.getByRole('button', { name: 'Step' });
  for (let i = 0; i < 4; i++) {
    await step.click();
    await waitForStep(page, i + 1);
  }
  await expect(page.getByRole('slider', { name: 'Difficulty' })).toHaveValue('4');

  // Changing controls writes the URL back.
  await page.getByRole('combobox', { name: 'Method of lane A' }).selectOption('prefix');
  await expect(
    page.getByRole('heading', { name: 'GRPO + solution prefix', exact: true }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled();
  await setDifficulty(page, 5);
  await expect.poll(() => new URL(page.url()).searchParams.get('schedule')).toBe('0:5');
  const url = page.url();
  const expected = decodeUrl(new URL(url).search);
  expect(expected.notices).toEqual([]);
  expect(expected.config).toMatchObject({
    preset: 'quick',
    methods: ['prefix', 'mentor'],
    seed: 7,
    evalEvery: 3,
    schedule: [{ step: 0, level: 5 }],
    hide: ['speed'],
  });

  // A second person opens the shared URL (a fresh browser context: no saved run).
  const other = await context.browser()!.newContext();
  const page2 = await other.newPage();
  await page2.goto(url);
  await expect(page2.getByRole('button', { name: 'Play' })).toBeEnabled({ timeout: 60_000 });
  await expect(page2.getByRole('combobox', { name: 'Method of lane A' })).toHaveValue('prefix');
  await expect(page2.getByRole('combobox', { name: 'Method of lane B' })).toHaveValue('mentor');
  await expect(page2.getByRole('slider', { name: 'Difficulty' })).toHaveValue('5');
  await expect(page2.getByRole('combobox', { name: 'Speed' })).toHaveCount(0);
  expect(decodeUrl(new URL(page2.url()).search).config).toEqual(expected.config);
  await other.close();
});

test('a hostile URL is cleaned up with a visible notice, and nothing of it runs', async ({
  page,
}, info) => {
  let dialogs = 0;
  page.on('dialog', (d) => {
    dialogs++;
    void d.dismiss();
  });
  const evil = encodeURIComponent('<img src=x onerror=alert(1)>');
  await openPlayground(
    page,
    `?preset=quick&seed=1e999&prompts=NaN&group=-5&methods=${evil},mentor&task=${encodeURIComponent('<script>alert(1)</script>')}&schedule=${'9:9,'.repeat(3)}x&lr=${'9'.repeat(300)}&${evil}=1`,
  );
  const notice = page.getByRole('region', { name: 'Notices' }).getByRole('status').first();
  await expect(notice).toContainText('Some URL settings were changed');
  for (const word of [
    'seed',
    'prompts',
    'group',
    'methods',
    'task',
    'schedule',
    'lr',
    'unknown parameter',
  ])
    await expect(notice).toContainText(word);
  await expect(notice).not.toContainText('<');
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Method of lane A' })).toHaveValue('none');
  await expect(page.getByRole('combobox', { name: 'Task' })).toHaveValue('arithmetic');
  // The URL is rewritten clean, and the page trains as usual.
  const clean = decodeUrl(new URL(page.url()).search);
  expect(clean.notices).toEqual([]);
  expect(clean.config.seed).toBe(2147483647);
  await page.getByRole('button', { name: 'Step' }).click();
  await waitForStep(page, 1);
  expect(dialogs).toBe(0);
  await page.screenshot({ path: info.outputPath('hostile-url.png'), fullPage: true });
});

test('Advanced settings go through the URL checks: kept failures stay below the group size', async ({
  page,
}) => {
  // Not the task's defaults everywhere (distillation, off on arithmetic), so a field the form
  // lost would show.
  await openPlayground(page, '?preset=quick&distill=0.3&distill_prompts=8');
  await page.getByRole('button', { name: 'Advanced settings' }).click();
  const kept = page.getByRole('spinbutton', { name: 'Failures kept beside help' });
  await expect(kept).toHaveValue('0');
  await kept.fill('9');
  await page.getByRole('button', { name: 'Apply and restart' }).click();
  await expect(
    page.getByRole('region', { name: 'Notices' }).getByRole('status').first(),
  ).toContainText('keep_failed: 9 must be below the group size 4; using 3');
  await expect.poll(() => new URL(page.url()).searchParams.get('keep_failed')).toBe('3');
  await expect(kept).toHaveValue('3');
  // Every other field went through the form unchanged.
  expect(decodeUrl(new URL(page.url()).search).config).toEqual({
    ...presetConfig('quick'),
    distill: 0.3,
    distillPrompts: 8,
    keepFailed: 3,
  });
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled();
});
