// The layer rule of eslint.config.js (docs/architecture.md#layers), run as `npm run check` runs it.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the layers, enforced by ESLint', () => {
  it('refuses an import from app in the engine', async () => {
    const errors = await layerErrors(
      'src/engine/backend.ts',
      "import { DOC_PATH } from '../app/url-params-doc.ts';\nexport const x = DOC_PATH;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('engine may not import this layer');
  });

  it('refuses what the page must not reach: rl from the ui, research from the app', async () => {
    expect(
      await layerErrors(
        'src/ui/x.ts',
        "import { STEP_METRICS } from '../rl/metrics.ts';\nexport const y = STEP_METRICS;\n",
      ),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'src/app/custom-task/x.ts',
        "import { summarize } from '../../research/summary.ts';\nexport const y = summarize;\n",
      ),
    ).toHaveLength(1);
  });

  it('keeps the run layer (one builder for the lanes and the CLI) above rl and below the page', async () => {
    const spec = "import { runConfig } from '../run/run-spec.ts';\nexport const y = runConfig;\n";
    expect(await layerErrors('src/app/x.ts', spec)).toEqual([]);
    expect(await layerErrors('src/rl/x.ts', spec)).toHaveLength(1);
    expect(await layerErrors('src/ui/x.ts', spec)).toHaveLength(1);
  });

  it('lets the interventions see rl only as the Intervention interface', async () => {
    const ok =
      "import type { Intervention } from '../../rl/intervention.ts';\nexport type Y = Intervention;\n";
    const not =
      "import { GrpoTrainer } from '../../rl/trainer.ts';\nexport const y = GrpoTrainer;\n";
    expect(await layerErrors('src/interventions/rivals/x.ts', ok)).toEqual([]);
    expect(await layerErrors('src/interventions/rivals/x.ts', not)).toHaveLength(1);
  });

  it('allows the layers below and the platform folder, and tests anything', async () => {
    const below =
      "import { matmul } from '../engine/kernels/matmul.ts';\nexport const y = matmul;\n";
    expect(await layerErrors('src/model/x.ts', below)).toEqual([]);
    expect(
      await layerErrors(
        'src/ui/x.ts',
        "import { etaText } from '../platform/eta.ts';\nexport const y = etaText;\n",
      ),
    ).toEqual([]);
    expect(
      await layerErrors(
        'src/engine/x.test.ts',
        "import { DOC_PATH } from '../app/url-params-doc.ts';\nexport const y = DOC_PATH;\n",
      ),
    ).toEqual([]);
  });

  it('takes the documented examples into the app as text only', async () => {
    const raw =
      "import code from '../../../docs/examples/reverse.js?raw';\nexport const y = code;\n";
    const run = "import * as m from '../../../docs/examples/reverse.js';\nexport const y = m;\n";
    expect(await layerErrors('src/app/custom-task/x.ts', raw)).toEqual([]);
    expect(await layerErrors('src/app/custom-task/x.ts', run)).toHaveLength(1);
  });

  it('keeps the page out of the CLI', async () => {
    const code = "import { presets } from '../src/app/presets.ts';\nexport const y = presets;\n";
    expect(await layerErrors('cli/x.ts', code)).toHaveLength(1);
  });
});
