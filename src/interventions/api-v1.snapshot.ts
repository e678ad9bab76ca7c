// Intervention API v1 as released: a frozen copy that api.test.ts holds the live types equal to.
// Never edit it to make the test pass; a change to the API is a new version (a new snapshot).
import type { Feedback, Hint, Problem } from '../tasks/index.ts';

export interface ScoredAttemptV1 {
  answer: string;
  ended: boolean;
  reward: number;
  feedback: Feedback;
  sampledTokens: number;
}
export interface ScoredGroupV1 {
  group: number;
  problem: Problem;
  hint?: Hint;
  scaffold?: string;
  attempts: ScoredAttemptV1[];
}
export interface ScoredBatchV1 {
  step: number;
  level: number;
  round: number;
  groups: ScoredGroupV1[];
}
export interface TrainContextV1 {
  step: number;
  level: number;
  groupSize: number;
  round: number;
  maxRounds: number;
  evalAccuracy: number | null;
  stepsAtLevel: number;
}
export interface DiagnosisV1 {
  cause: string;
  frontier?: number;
  evidence: string;
  confidence: number;
}
export type RetryLearningV1 =
  'as-sampled' | 'unhinted-reweighted' | 'unhinted-shaped' | 'unhinted-shaped-drawn';
export interface RetryV1 {
  kind: 'retry';
  hint?: Hint;
  scaffold?: string;
  learn: RetryLearningV1;
  creditScaffold?: boolean;
}
export interface DemonstrationV1 {
  kind: 'demonstration';
  answer: string;
  count: number;
  weight: 'shaped' | 'plain';
}
export interface RefinementV1 {
  kind: 'refinement';
  critique: Hint;
  scaffold?: string;
  count: number;
}
export type HelpV1 = RetryV1 | DemonstrationV1 | RefinementV1;
export interface RepromptV1 {
  group: number;
  help: HelpV1;
  strength?: number;
  diagnosis?: DiagnosisV1;
  note: string;
  author?: string;
}
export interface InterventionV1 {
  readonly name: string;
  plan(batch: ScoredBatchV1, ctx: TrainContextV1): Promise<RepromptV1[]>;
  observe?(retry: ScoredBatchV1, ctx: TrainContextV1): void | Promise<void>;
  recover?(reason: string): void | Promise<void>;
  stats?(): Record<string, number> | Promise<Record<string, number>>;
  saveState?(): unknown;
  restoreState?(state: unknown): void | Promise<void>;
}
