import { expect, test } from '@playwright/test';
import { presetConfig } from '../src/app/presets.ts';
import { COLLAPSE } from '../src/rl/scenarios.ts';
import { latestMetric, openPlayground, setDifficulty, waitForStep } from './playground.ts';

// Minutes of training (about 250 steps of both lanes). On listlang the mentor lane passes 0.1 ahead
// of plain GRPO within ~150 steps of the jump (README, "Recovery results"); on arithmetic it stays
// near 0.1 itself, so E2E_RECOVERY_PRESET=collapse is expected to time out. E2E_RECOVERY=0 skips
// it; E2E_RECOVERY_TIMEOUT_S (default 900) bounds the wait.
const enabled = process.env.E2E_RECOVERY !== '0';
const timeoutS = Number(process.env.E2E_RECOVERY_TIMEOUT_S ?? 900);
const preset = (process.env.E2E_RECOVERY_PRESET ?? 'listlang') as Parameters<
  typeof presetConfig
>[0];

test('after the jump the MENTOR lane’s unhinted eval accuracy overtakes the GRPO lane’s', async ({
  page,
}, info) => {
  test.skip(!enabled, 'E2E_RECOVERY=0');
  test.setTimeout((timeoutS + 120) * 1000);
  const { hard } = COLLAPSE[presetConfig(preset).task];
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
