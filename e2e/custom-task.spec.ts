import { expect, test } from '@playwright/test';
import { TASK_CODE_PARAM } from '../src/app/experiment-params.ts';
import { sharedCodeLink } from '../src/app/shared-code.ts';
import {
  latestMetric,
  openPlayground,
  setDifficulty,
  stepsDone,
  typeInEditor,
} from './playground.ts';

// A task a person writes: reverse a word of up to six letters, jumping from three letters to five.
// Its label says where its code ran: a page has a document, a worker none.
const TASK = `export default {
  id: 'mini-reverse',
  label: typeof document === 'undefined' ? 'Reverse a short word' : 'ran on the page',
  levels: { min: 2, max: 6 },
  collapse: { easy: 3, hard: 5 },
  describeLevel: (level) => level + '-letter words',
  sample(level, rng) {
    const word = Array.from({ length: level }, () => rng.pick([...'abcdef'])).join('');
    return { text: word, answer: [...word].reverse().join('') };
  },
};
`;

test('a task written in the page is checked, warmed up and gated, and the mentor lane recovers from its collapse', async ({
  page,
}) => {
  test.setTimeout(420_000);
  await openPlayground(page, '?preset=quick&methods=none,mentor');
  await page.getByLabel('Task', { exact: true }).selectOption('custom');
  await expect(page.getByRole('heading', { name: 'Custom task' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Custom task status' })).toHaveText(
    /Not checked yet/,
  );

  // A task that breaks a rule is refused, naming the level, the problem and the fault.
  await typeInEditor(
    page,
    'Custom task code',
    TASK.replace("answer: [...word].reverse().join('')", 'answer: word.toUpperCase()'),
  );
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.getByLabel('Custom task fault')).toHaveText(
    /task "mini-reverse" is refused:\s+level 2, problem "\w+": its answer holds "[A-F]" at position 0, not in the vocabulary/,
  );
  // The status says so too, rather than that the code was never checked.
  await expect(page.getByRole('status', { name: 'Custom task status' })).toHaveText(
    /^Refused: level 2, problem "\w+": its answer holds "[A-F]" at position 0, not in the vocabulary.*Fix the code and Check again\.$/,
  );

  await typeInEditor(page, 'Custom task code', TASK);
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.getByRole('status', { name: 'Custom task status' })).toHaveText(
    'Checked: Reverse a short word, levels 2–6, the jump 3 → 5.',
  );
  await expect(page.getByRole('slider', { name: 'Difficulty' })).toHaveValue('3');

  await page.getByLabel('Warm-up steps').fill('400');
  await page.getByRole('button', { name: 'Warm a base up' }).click();
  await expect(page.getByRole('status', { name: 'Warm-up status' })).toHaveText(/step \d+ of 400/);
  await expect(page.getByLabel('Gate verdict')).toHaveText(
    /greedy 0% at level 5; unhelped about 1 in 10\S+; with a length hint \d+%.*A collapse within reach of help/,
    { timeout: 300_000 },
  );
  await expect(page.getByRole('table', { name: 'Hint literacy' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled({ timeout: 60_000 });

  // Past the easy level: plain GRPO has nothing to learn from; the mentor's lane climbs.
  await setDifficulty(page, 5);
  await page.getByRole('button', { name: 'Play' }).click();
  await expect
    .poll(() => latestMetric(page, 'eval_accuracy', 1), { timeout: 240_000, intervals: [1000] })
    .toBeGreaterThanOrEqual(0.5);
  await page.getByRole('button', { name: 'Pause' }).click();
  // Paused once the step in progress is done and saved.
  await expect(page.getByRole('status', { name: 'Run status' })).toHaveText(/paused$/);
  expect(await latestMetric(page, 'eval_accuracy', 0)).toBe(0);
  const done = await stepsDone(page);

  // The run, its task and its base are kept in the browser: a reload goes on with them.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled({ timeout: 60_000 });
  await expect(page.getByRole('status', { name: 'Custom task status' })).toHaveText(
    /^Checked: Reverse a short word/,
  );
  // The base's file carries its verdict: it comes back with it.
  await expect(page.getByLabel('Gate verdict')).toHaveText(/A collapse within reach of help/);
  expect(await stepsDone(page)).toBeGreaterThan(0);
  expect(await stepsDone(page)).toBeLessThanOrEqual(done);
});

test('a task whose sample never returns is stopped by its check, naming the level; a verify that throws costs its answers, not the run', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await openPlayground(page, '?preset=quick&methods=none,mentor');
  await page.getByLabel('Task', { exact: true }).selectOption('custom');
  await typeInEditor(
    page,
    'Custom task code',
    TASK.replace('const word', 'while (level === 4) {}\n    const word'),
  );
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.getByLabel('Custom task fault')).toHaveText(
    'its check did not end within 20 s (at level 4): a sample or verify that never returns?',
  );
  // The page goes on: the slider and the buttons still answer.
  await expect(page.getByRole('button', { name: 'Check', exact: true })).toBeEnabled();

  const throwing = TASK.replace(
    '  sample(level, rng) {',
    "  verify(problem, answer) {\n    if (answer !== problem.answer) throw new Error('no verdict for ' + answer);\n    return 1;\n  },\n  sample(level, rng) {",
  );
  await typeInEditor(page, 'Custom task code', throwing);
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.getByRole('status', { name: 'Custom task status' })).toHaveText(/^Checked/);
  await page.getByLabel('Warm-up steps').fill('100');
  await page.getByRole('button', { name: 'Warm a base up' }).click();
  await expect(page.getByLabel('Gate verdict')).toBeVisible({ timeout: 240_000 });
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled({ timeout: 60_000 });
  await setDifficulty(page, 5);
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Step' }).click();
  // Every lane says so, the plain GRPO one (no mentor log) too.
  const verifyFailed =
    /the verifier failed on \d+ answers? this step, each scored 0; the first: task "mini-reverse": verify threw \(no verdict for \w*\)/;
  for (const lane of ['GRPO', 'GRPO + MENTOR'])
    await expect(page.getByRole('list', { name: `${lane} trainer's notes` })).toContainText(
      verifyFailed,
    );
  expect(await stepsDone(page)).toBeGreaterThanOrEqual(1);
});

test('a task that arrives by link is shown and waits; it runs only once the person checks it', async ({
  page,
}) => {
  const link = await sharedCodeLink('/', '?preset=quick&task=custom', TASK, TASK_CODE_PARAM);
  await page.goto(`.${link}`);
  await expect(page.getByText(/This link carries code for the custom task/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Custom task code' })).toContainText(
    "id: 'mini-reverse'",
  );
  await expect(page.getByRole('status', { name: 'Custom task status' })).toHaveText(
    /Not checked yet/,
  );
  await expect(page.getByRole('status', { name: 'Run status' })).toHaveText(
    /Waiting: Write or pick a task/,
  );
  // A reload shows it again, still waiting.
  await page.reload();
  await expect(page.getByRole('status', { name: 'Custom task status' })).toHaveText(
    /Not checked yet/,
  );
  await page.getByRole('button', { name: 'Check this code' }).click();
  await expect(page.getByRole('status', { name: 'Custom task status' })).toHaveText(
    /^Checked: Reverse a short word/,
  );
  expect(new URL(page.url()).searchParams.has('task_code')).toBe(false);
});
