import type { Backend } from '../backend.ts';
import type { CheckResult, SelfCheck } from './check.ts';

/** Run checks one after another; a check that throws is reported as failed, never skipped. */
export async function runChecks(
  be: Backend,
  checks: readonly SelfCheck[],
  onResult?: (r: CheckResult) => void,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    let r: CheckResult;
    try {
      r = await check.run(be);
    } catch (e) {
      r = {
        name: check.name,
        kind: check.kind,
        pass: false,
        maxError: Infinity,
        detail: String((e as Error).message ?? e),
      };
    }
    results.push(r);
    onResult?.(r);
  }
  return results;
}
