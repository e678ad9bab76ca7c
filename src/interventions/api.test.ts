import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as api from './api.ts';
import { INTERVENTION_API_VERSION } from './api.ts';
import type * as v1 from './api-v1.snapshot.ts';

// The checks are types: `tsc --noEmit` (npm run check) fails where the live API and the v1
// snapshot differ in any field, optional mark or member.
describe('intervention API v1', () => {
  it('is the version released, and its types are those of the snapshot', () => {
    expect(INTERVENTION_API_VERSION).toBe(1);
    expectTypeOf<api.ScoredAttempt>().toEqualTypeOf<v1.ScoredAttemptV1>();
    expectTypeOf<api.ScoredGroup>().toEqualTypeOf<v1.ScoredGroupV1>();
    expectTypeOf<api.ScoredBatch>().toEqualTypeOf<v1.ScoredBatchV1>();
    expectTypeOf<api.TrainContext>().toEqualTypeOf<v1.TrainContextV1>();
    expectTypeOf<api.Diagnosis>().toEqualTypeOf<v1.DiagnosisV1>();
    expectTypeOf<api.RetryLearning>().toEqualTypeOf<v1.RetryLearningV1>();
    expectTypeOf<api.Retry>().toEqualTypeOf<v1.RetryV1>();
    expectTypeOf<api.Demonstration>().toEqualTypeOf<v1.DemonstrationV1>();
    expectTypeOf<api.Refinement>().toEqualTypeOf<v1.RefinementV1>();
    expectTypeOf<api.Help>().toEqualTypeOf<v1.HelpV1>();
    expectTypeOf<api.Reprompt>().toEqualTypeOf<v1.RepromptV1>();
    expectTypeOf<api.Intervention>().toEqualTypeOf<v1.InterventionV1>();
  });
});
