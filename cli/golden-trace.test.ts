import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  GOLDEN_DIR,
  GOLDEN_RUNS,
  firstDifference,
  runGolden,
  unpackGolden,
} from './testing/golden-trace.ts';

// Every method on every family reproduces its committed trace exactly (npm run golden:write
// rewrites it, only for a change meant to move the numbers).
describe('the golden trace', () => {
  it('covers every method on every family', () => {
    const names = GOLDEN_RUNS.map((r) => r.name);
    for (const task of ['arithmetic', 'listlang'])
      for (const m of ['none', 'static', 'prefix', 'offpolicy', 'refine', 'mentor'])
        expect(names).toContain(`${task}-${m}`);
  });

  it.concurrent.each(GOLDEN_RUNS)(
    '$name reproduces its JSONL exactly',
    async (run) => {
      const want = unpackGolden(readFileSync(`${GOLDEN_DIR}/${run.name}.jsonl.gz`));
      const got = await runGolden(run);
      expect(firstDifference(want, got)).toBeNull();
      expect(got).toBe(want);
    },
    900_000,
  );
});
