// `npm run docs:params`: writes the URL parameter table into docs/url-and-presets.md from the
// parameter table in src/app/experiment-params.ts (a unit test fails while the two differ).
import { readFileSync, writeFileSync } from 'node:fs';
import { DOC_PATH, withParamTable } from '../src/app/url-params-doc.ts';

writeFileSync(DOC_PATH, withParamTable(readFileSync(DOC_PATH, 'utf8')));
console.log(`wrote the URL parameter table of ${DOC_PATH}`);
