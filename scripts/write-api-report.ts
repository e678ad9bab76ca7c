// `npm run api:report`: writes the intervention API's report (src/interventions/api-report.ts).
// Only for a deliberate change to the public types: say in the commit what changed and why.
import { writeFileSync } from 'node:fs';
import { REPORT_PATH, apiReport } from '../src/interventions/api-report.ts';

writeFileSync(REPORT_PATH, apiReport());
console.log(`wrote ${REPORT_PATH}`);
