/** What the rollout inspector shows: the trainer's view of the latest step's groups. */
export type { RolloutGroup } from '../rl/rollouts.ts';
