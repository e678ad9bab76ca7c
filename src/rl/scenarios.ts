import type { FamilyId } from '../tasks/index.ts';
import type { LevelChange } from './config.ts';

/**
 * The collapse scenario of each family: an easy level where the shipped base is ≥ 90% greedy,
 * and a hard level where it is near 0% unhinted but solvable with hints (README, "Base policies").
 */
export interface CollapseScenario {
  easy: number;
  hard: number;
  /** Step of the jump: a short stretch at the easy level first shows GRPO keeps it. */
  jumpAt: number;
  /** Unhelped failures a helped group keeps (GrpoConfig.keepFailed) on this base. */
  keepFailed: number;
}

export const COLLAPSE: Record<FamilyId, CollapseScenario> = {
  arithmetic: { easy: 3, hard: 4, jumpAt: 100, keepFailed: 0 },
  // The shipped base writes two ops only when a hint asks for them: one op 100%, two ops 0%
  // unhinted and 76–84% with a hint. Help rescues nearly every group, and a group whose
  // re-attempts all pass has no gradient; kept failures give it one (README, "Recovery results").
  listlang: { easy: 1, hard: 2, jumpAt: 100, keepFailed: 4 },
};

export function collapseSchedule(task: FamilyId): LevelChange[] {
  const s = COLLAPSE[task];
  return [
    { step: 0, level: s.easy },
    { step: s.jumpAt, level: s.hard },
  ];
}

/** "0:3,150:6" → level changes, sorted, first at step 0. */
export function parseSchedule(text: string): LevelChange[] {
  const changes = text.split(',').map((part) => {
    const m = /^\s*(\d+)\s*:\s*(\d+)\s*$/.exec(part);
    if (!m) throw new Error(`schedule entry "${part}" is not step:level`);
    return { step: Number(m[1]), level: Number(m[2]) };
  });
  changes.sort((a, b) => a.step - b.step);
  if (changes[0].step !== 0) throw new Error('a schedule starts at step 0');
  for (let i = 1; i < changes.length; i++) {
    if (changes[i].step === changes[i - 1].step)
      throw new Error(`two levels at step ${changes[i].step}`);
  }
  return changes;
}

export function formatSchedule(s: readonly LevelChange[]): string {
  return s.map((c) => `${c.step}:${c.level}`).join(',');
}
