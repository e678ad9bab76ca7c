// `npm run golden:write [name …]`: reruns the golden trace (cli/testing/golden-trace.ts) and
// writes it. Only for a change meant to move the numbers; say in its commit what moved and why.
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { GOLDEN_DIR, GOLDEN_RUNS, packGolden, runGolden } from '../cli/testing/golden-trace.ts';

const only = process.argv.slice(2);
const todo = GOLDEN_RUNS.filter((r) => only.length === 0 || only.includes(r.name));
let next = 0;
async function worker(): Promise<void> {
  while (next < todo.length) {
    const run = todo[next++];
    const t0 = performance.now();
    writeFileSync(`${GOLDEN_DIR}/${run.name}.jsonl.gz`, packGolden(await runGolden(run)));
    console.log(`${run.name}: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
}
await Promise.all(Array.from({ length: availableParallelism() }, worker));
