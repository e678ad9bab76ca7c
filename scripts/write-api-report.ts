// `npm run api:report`: writes the reports of the intervention and task APIs (scripts/api-report.ts).
// Only for a deliberate change to the public types: say in the commit what changed and why.
import { writeFileSync } from 'node:fs';
import { INTERVENTION_API_REPORT, TASK_API_REPORT, apiReport } from './api-report.ts';

for (const report of [INTERVENTION_API_REPORT, TASK_API_REPORT]) {
  writeFileSync(report.path, apiReport(report));
  console.log(`wrote ${report.path}`);
}
