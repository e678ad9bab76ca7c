// Test-only: a task and a config the RL loop can be tested on without any real family.
import { createRng, type Problem, type TaskFamily } from '../../tasks/index.ts';
import { DEFAULT_GRPO, type GrpoConfig } from '../config.ts';

/**
 * A two-armed bandit dressed as a task: the answer's first character is either one of the
 * rewarded letters or not. The right direction for the policy is known: more mass on them.
 */
export const REWARDED = 'abcdefghijklm';
export const bandit: TaskFamily = {
  id: 'arithmetic',
  levels: { min: 1, max: 1 },
  answerChars: REWARDED,
  hintKinds: [],
  sample: () =>
    ({ family: 'arithmetic', level: 1, text: '1+1', answer: 'a', data: {} }) as unknown as Problem,
  verify: (_p, answer) => ({
    reward: answer.length > 0 && REWARDED.includes(answer[0]) ? 1 : 0,
    feedback: { family: 'arithmetic', kind: 'format', detail: '' } as never,
  }),
  maxTokens: () => 8,
};

/** The bandit at levels 1 and 2 (each problem says its level), scoring `reward(problem)`. */
export function twoLevelBandit(reward: (p: Problem) => number): TaskFamily {
  return {
    ...bandit,
    levels: { min: 1, max: 2 },
    sample: (level) => ({ ...bandit.sample(level, createRng(0)), level }) as Problem,
    verify: (p, a) => ({ ...bandit.verify(p, a), reward: reward(p) }),
  };
}

export function config(patch: Partial<GrpoConfig>): GrpoConfig {
  return { ...DEFAULT_GRPO, task: 'arithmetic', schedule: [{ step: 0, level: 1 }], ...patch };
}
