import { TaskError } from '../errors.ts';
import type { CollapseScenario, FamilyEntry } from '../family-entry.ts';
import { checkLevel } from '../levels.ts';
import type { Rng } from '../rng.ts';
import type { TaskFamily, Verdict } from '../types.ts';
import type { CustomFeedback, CustomProblem, CustomTaskId } from './custom-problem.ts';
import { errorMessage, sequenceTokens, type CheckedTask } from './task-check.ts';
import { TASK_CHARS, shown, type TaskModule } from './task-module.ts';

/** Half the default group of 8. */
const KEPT_FAILURES = 4;

/**
 * A loaded task's collapse scenario: its jump (or the lowest level to the next) at step 100, four
 * of a group's failures kept beside its re-attempts, every other setting at its neutral value
 * (docs/protocol.md): replay at the rest share, no distillation, a constant learning rate. Four,
 * half the group: with none kept, a group whose help always works has equal rewards and no
 * gradient, whichever method helped (docs/tasks.md says when this rule was fixed).
 */
export function customCollapse(task: Pick<TaskModule, 'levels' | 'collapse'>): CollapseScenario {
  const easy = task.collapse?.easy ?? task.levels.min;
  const hard = task.collapse?.hard ?? Math.min(task.levels.max, easy + 1);
  return {
    easy,
    hard,
    jumpAt: 100,
    keepFailed: KEPT_FAILURES,
    replayMax: 0.125,
    distill: 0,
    distillPrompts: 0,
    lrDecay: 0,
  };
}

/** Draws a problem again where one is longer than the check's longest at its level, this often. */
const REDRAWS = 100;

/**
 * The family a checked task module trains as: its problems carry only their text and answer, the
 * help any family has (length, prefix and critique hints) and the task-agnostic diagnosis apply.
 * What its code does wrong at run time is named: a `sample` that throws or returns a bad problem
 * is a TaskError; a `verify` that throws or returns no number in [0, 1] scores the answer 0 with
 * a fault the trainer reports. `id`: the family's id where it goes by another than the module's
 * (the page's custom task is always `custom`).
 */
export function customEntry(
  task: TaskModule,
  checked: CheckedTask,
  id = task.id as CustomTaskId,
): FamilyEntry<CustomProblem, CustomFeedback> {
  const levels = task.levels;
  const maxTokens = (level: number) => {
    checkLevel(id, levels, level);
    return checked.maxTokens[level - levels.min];
  };
  const family: TaskFamily<CustomProblem, CustomFeedback> = {
    id,
    levels,
    answerChars: checked.answerChars,
    hintKinds: ['length', 'prefix'],
    sample(level: number, rng: Rng): CustomProblem {
      const bound = maxTokens(level);
      for (let i = 0; i < REDRAWS; i++) {
        const { text, answer } = sampleOnce(task, level, rng);
        if (sequenceTokens(text, answer) <= bound)
          return { family: id, level, text, answer, data: null };
      }
      throw new TaskError(
        `task "${task.id}": sample(${level}) gave ${REDRAWS} problems in a row longer than any the check drew at this level (${bound} tokens)`,
      );
    },
    verify(problem: CustomProblem, answer: string): Verdict<CustomFeedback> {
      return verifyWith(task, id, problem, answer);
    },
    maxTokens,
  };
  return {
    label: task.label,
    describeLevel(level: number): string {
      const fallback = `level ${level}`;
      if (!task.describeLevel) return fallback;
      try {
        const text = task.describeLevel(level);
        return typeof text === 'string' && text !== '' && text.length <= 80 ? text : fallback;
      } catch {
        return fallback;
      }
    },
    answerUnit: task.answerUnit ?? ['character', 'characters'],
    family,
    training: family,
    collapse: customCollapse(task),
  };
}

function sampleOnce(task: TaskModule, level: number, rng: Rng): { text: string; answer: string } {
  let out: unknown;
  try {
    out = task.sample(level, rng);
  } catch (e) {
    throw new TaskError(`task "${task.id}": sample(${level}) threw: ${errorMessage(e)}`);
  }
  const p = out as { text?: unknown; answer?: unknown } | null;
  if (typeof p?.text !== 'string' || typeof p.answer !== 'string')
    throw new TaskError(
      `task "${task.id}": sample(${level}) returned ${shown(out)}, not { text, answer }`,
    );
  for (const s of [p.text, p.answer])
    if (s === '' || [...s].some((c) => !TASK_CHARS.includes(c)))
      throw new TaskError(
        `task "${task.id}": sample(${level}) returned ${shown(s)}, empty or outside the task characters`,
      );
  return { text: p.text, answer: p.answer };
}

function verifyWith(
  task: TaskModule,
  id: CustomTaskId,
  problem: CustomProblem,
  answer: string,
): Verdict<CustomFeedback> {
  const scored = (reward: number): Verdict<CustomFeedback> => ({
    reward,
    feedback: { family: id, kind: reward === 1 ? 'right' : reward === 0 ? 'wrong' : 'partial' },
  });
  if (!task.verify) return scored(answer === problem.answer ? 1 : 0);
  const fault = (what: string): Verdict<CustomFeedback> => ({
    reward: 0,
    feedback: { family: id, kind: 'fault' },
    fault: `task "${task.id}": verify ${what} on the answer ${shown(answer)} to ${shown(problem.text)}; scored 0`,
  });
  let r: unknown;
  try {
    r = task.verify(
      Object.freeze({ level: problem.level, text: problem.text, answer: problem.answer }),
      answer,
    );
  } catch (e) {
    return fault(`threw (${errorMessage(e)})`);
  }
  if (typeof r !== 'number' || Number.isNaN(r)) return fault(`returned ${shown(r)}, not a number`);
  if (r < 0 || r > 1) return fault(`returned ${r}, outside [0, 1]`);
  return scored(r);
}
