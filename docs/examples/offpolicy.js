// The off-policy rival (LUFFY-style guidance), written against the public API as a starting point:
// every group whose answers all failed gets the reference answer written in place of one of its
// failures, learned with the shaped weight. It does what the built-in `offpolicy` method does.
// npm run table -- --methods offpolicy,docs/examples/offpolicy.js --seeds 1

/** @type {import('../../src/interventions/api.ts').Intervention} */
export default {
  name: 'offpolicy-js',
  async plan(batch, ctx) {
    // Once per step: the written answer needs no second round.
    if (ctx.round > 1) return [];
    const count = Math.min(1, ctx.groupSize - 1);
    if (count < 1) return [];
    return batch.groups
      .filter((group) => group.attempts.every((a) => a.reward === 0))
      .map((group) => ({
        group: group.group,
        help: { kind: 'demonstration', answer: group.problem.answer, count, weight: 'shaped' },
        note: `Put the reference answer ${group.problem.answer} in place of ${count} of the ${ctx.groupSize} failed answers (off-policy, shaped loss).`,
      }));
  },
};
