// What the rollout inspector shows: the trainer's view of the latest step's groups, the most
// informative first.
import type { RolloutGroup } from '../rl/rollouts.ts';

export type { RolloutGroup };

/** Below this an advantage is 0: the group taught nothing. */
const NO_SIGNAL = 1e-6;

/**
 * How much a group shows of what the step learned, lower first: a helped group with learning
 * signal (non-zero advantages), then one of the level being trained with signal, then the rest
 * of those, then replayed easy problems (with signal first) — which the trainer samples first,
 * and which before the jump all score 1 at advantage 0.
 */
function rank(g: RolloutGroup): number {
  const signal = g.attempts.some((a) => Math.abs(a.advantage) > NO_SIGNAL);
  const helped = g.hint !== null || g.scaffold !== null;
  if (helped || !g.replayed) return signal ? (helped ? 0 : 1) : 2;
  return signal ? 3 : 4;
}

/** The groups, the most informative first; the trainer's order within a rank. */
export function informativeFirst(groups: readonly RolloutGroup[]): RolloutGroup[] {
  return groups
    .map((g, i) => ({ g, i, r: rank(g) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map(({ g }) => g);
}
