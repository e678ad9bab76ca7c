import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INTERVENTION_API_VERSION } from './api.ts';
import { REPORT_PATH, apiReport } from './api-report.ts';

describe('intervention API', () => {
  it('is version 1, its types exactly those of the released report (npm run api:report)', () => {
    expect(INTERVENTION_API_VERSION).toBe(1);
    expect(apiReport()).toBe(readFileSync(REPORT_PATH, 'utf8'));
  }, 60_000);
});
