// `npm run docs:metrics`: writes the step metric table into docs/url-and-presets.md from
// STEP_METRICS in src/rl/metrics.ts (a unit test fails while the two differ).
import { readFileSync, writeFileSync } from 'node:fs';
import { DOC_PATH } from '../src/app/url-params-doc.ts';
import { withMetricTable } from '../src/app/step-metrics-doc.ts';

writeFileSync(DOC_PATH, withMetricTable(readFileSync(DOC_PATH, 'utf8')));
console.log(`wrote the step metric table of ${DOC_PATH}`);
