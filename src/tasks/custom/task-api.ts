// The task API, version 1: what a task module exports and what it is given (docs/tasks.md). A
// task written against these types keeps working while the version stays; task-api.test.ts pins
// them to the released report (scripts/api-report.ts), so that changing one is a decision.
export const TASK_API_VERSION = 1;

export type { Rng } from '../rng.ts';
export type { Levels } from '../types.ts';
export type { SampledProblem, TaskModule, TaskProblem } from './task-module.ts';
export { RESERVED_CHARS, TASK_CHARS } from './task-module.ts';
