// A mentor in 20 lines: every group whose answers all failed gets a fresh attempt with the
// answer's length in the hint slot, and what the attempt gets right is learned as the answer to
// the prompt without the hint. Run it: npm run experiment -- --method docs/examples/length-hint.js
// The types it reads and returns: docs/interventions.md (intervention API v1).

/** @type {import('../../src/interventions/api.ts').Intervention} */
export default {
  name: 'length-hint',
  async plan(batch, ctx) {
    // Help once per step, in the first round of re-attempts.
    if (ctx.round > 1) return [];
    return batch.groups
      .filter((group) => group.attempts.every((a) => a.reward === 0))
      .map((group) => ({
        group: group.group,
        help: {
          kind: 'retry',
          hint: { kind: 'length', length: group.problem.answer.length },
          learn: 'unhinted-shaped-drawn',
        },
        note: `All ${group.attempts.length} failed; hinted the length (${group.problem.answer.length}).`,
      }));
  },
};
