// The public intervention API, version 1: what a method written outside this repository (a module
// for `npm run experiment --method`) reads and may return. docs/interventions.md explains every
// field; api.test.ts pins these types to the released report (scripts/api-report.ts), so that changing
// one is a decision, and one that breaks a v1 module bumps the version.
export const INTERVENTION_API_VERSION = 1;

export type {
  ContextDistill,
  Declined,
  Demonstration,
  Diagnosis,
  Help,
  Intervention,
  Refinement,
  Reprompt,
  Retry,
  RetryLearning,
  ScoredAttempt,
  ScoredBatch,
  ScoredGroup,
  TrainContext,
} from '../rl/intervention.ts';
export type { Feedback, Hint, Problem } from '../tasks/index.ts';
