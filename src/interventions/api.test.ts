import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INTERVENTION_API_VERSION } from './api.ts';
import { INTERVENTION_API_REPORT, apiReport } from '../../scripts/api-report.ts';

describe('intervention API', () => {
  it('is version 1, its types exactly those of the released report (npm run api:report)', () => {
    expect(INTERVENTION_API_VERSION).toBe(1);
    expect(apiReport(INTERVENTION_API_REPORT)).toBe(
      readFileSync(INTERVENTION_API_REPORT.path, 'utf8'),
    );
  }, 60_000);
});
