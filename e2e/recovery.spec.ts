import { expect, test } from '@playwright/test';
import { COLLAPSE } from '../src/rl/scenarios.ts';
import { latestMetric, openPlayground, setDifficulty, waitForStep } from './playground.ts';

// Off by default: on the CLI the mentor lifts 4-digit eval accuracy to under 0.1 in 800 steps
// (README, "Recovery results"), more training than an e2e run affords on SwiftShader. Enable with
// E2E_RECOVERY=1; E2E_RECOVERY_PRESET (default quick) and E2E_RECOVERY_TIMEOUT_S (default 900)
// tune it.
const enabled = process.env.E2E_RECOVERY === '1';
const timeoutS = Number(process.env.E2E_RECOVERY_TIMEOUT_S ?? 900);
const preset = process.env.E2E_RECOVERY_PRESET ?? 'quick';

test('after the jump the MENTOR lane’s unhinted eval accuracy overtakes the GRPO lane’s', async ({
  page,
}, info) => {
  test.skip(!enabled, 'minutes of training for a small effect; set E2E_RECOVERY=1 to run');
  test.setTimeout((timeoutS + 120) * 1000);
  const { hard } = COLLAPSE.arithmetic;
  await openPlayground(page, `?preset=${preset}&speed=fast`);
  await page.getByRole('button', { name: 'Play' }).click();
  await waitForStep(page, 20);
  await setDifficulty(page, hard);
  await expect
    .poll(
      async () =>
        (await latestMetric(page, 'eval_accuracy', 1)) -
        (await latestMetric(page, 'eval_accuracy', 0)),
      { timeout: timeoutS * 1000, intervals: [5000] },
    )
    .toBeGreaterThanOrEqual(0.1);
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.screenshot({ path: info.outputPath('recovery.png'), fullPage: true });
});
