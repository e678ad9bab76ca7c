// `npm run docs:params`: writes the URL parameter table into docs/url-and-presets.md from the
// parameter table in src/app/experiment-params.ts, and the trainer's settings from
// src/rl/settings.ts (a unit test fails while the docs and the tables differ).
import { readFileSync, writeFileSync } from 'node:fs';
import { DOC_PATH, withParamTable } from '../src/app/url-params-doc.ts';

writeFileSync(DOC_PATH, withParamTable(readFileSync(DOC_PATH, 'utf8')));
console.log(`wrote the URL parameter and trainer settings tables of ${DOC_PATH}`);
