import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TASK_API_REPORT, apiReport } from '../../../scripts/api-report.ts';
import { TASK_API_VERSION } from './task-api.ts';

describe('task API', () => {
  it('is version 1, its types exactly those of the released report (npm run api:report)', () => {
    expect(TASK_API_VERSION).toBe(1);
    expect(apiReport(TASK_API_REPORT)).toBe(readFileSync(TASK_API_REPORT.path, 'utf8'));
  }, 60_000);
});
