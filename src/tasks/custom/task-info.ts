import { TaskError } from '../errors.ts';
import type { FamilyEntry } from '../family-entry.ts';
import { checkLevel } from '../levels.ts';
import type { Levels, TaskFamily, Verdict } from '../types.ts';
import {
  CUSTOM_TASK_ID,
  type CustomFeedback,
  type CustomProblem,
  type CustomTaskId,
} from './custom-problem.ts';
import { customCollapse, customEntry } from './custom-entry.ts';
import type { CheckedTask } from './task-check.ts';
import type { TaskModule } from './task-module.ts';

export { CUSTOM_TASK_ID };

/**
 * What a context that must not run a task's code (the page, a mentor worker) knows of it: plain
 * data from the worker that checked it, its levels in words already written.
 */
export interface TaskInfo {
  /** The module's own id (the page's family goes by `custom` whatever it is). */
  readonly moduleId: string;
  readonly label: string;
  readonly levels: Levels;
  /** describeLevel of every level, from levels.min. */
  readonly levelNames: readonly string[];
  readonly answerUnit: readonly [string, string];
  readonly collapse: { readonly easy: number; readonly hard: number };
  readonly checked: CheckedTask;
}

/** The plain-data account of a checked task (run where its code runs). */
export function taskInfo(task: TaskModule, checked: CheckedTask): TaskInfo {
  const entry = customEntry(task, checked);
  const { easy, hard } = entry.collapse;
  const { min, max } = task.levels;
  return {
    moduleId: task.id,
    label: entry.label,
    levels: task.levels,
    levelNames: Array.from({ length: max - min + 1 }, (_, i) => entry.describeLevel(min + i)),
    answerUnit: entry.answerUnit,
    collapse: { easy, hard },
    checked,
  };
}

/**
 * A family made of a task's account alone, for contexts that read a family (its levels, label,
 * alphabet, hints) but never sample it: `sample` is refused, and `verify` is exact match, which is
 * what a hint's truth is judged by there (the trainer, where the code runs, scores every answer).
 */
export function describedEntry(
  info: TaskInfo,
  id: CustomTaskId,
): FamilyEntry<CustomProblem, CustomFeedback> {
  const levelIndex = (level: number) => {
    checkLevel(info.label, info.levels, level);
    return level - info.levels.min;
  };
  const family: TaskFamily<CustomProblem, CustomFeedback> = {
    id,
    levels: info.levels,
    answerChars: info.checked.answerChars,
    hintKinds: ['length', 'prefix'],
    sample(): CustomProblem {
      throw new TaskError(`${info.label}: its problems are drawn where its code runs, not here`);
    },
    verify(problem: CustomProblem, answer: string): Verdict<CustomFeedback> {
      const right = answer === problem.answer;
      return { reward: right ? 1 : 0, feedback: { family: id, kind: right ? 'right' : 'wrong' } };
    },
    maxTokens: (level) => info.checked.maxTokens[levelIndex(level)],
  };
  return {
    label: info.label,
    describeLevel: (level) => info.levelNames[levelIndex(level)],
    answerUnit: info.answerUnit,
    family,
    training: family,
    collapse: customCollapse(info),
  };
}
