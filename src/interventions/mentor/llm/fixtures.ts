/**
 * The tiny local models that `scripts/make-llm-fixture.ts` generates into `public/models/`.
 * Each one ignores its prompt and greedily writes `reply`, then ends with its EOS token, so tests
 * can drive the real Transformers.js loading and generation code offline and know the answer.
 */
export interface LlmFixture {
  /** Folder under `public/models/`; also the model id given to Transformers.js. */
  readonly id: string;
  readonly reply: string;
}

/** Replies like a well-behaved mentor agent: a hint line and a reason line. */
export const VALID_FIXTURE: LlmFixture = {
  id: 'mentor-fixture-valid',
  reply: 'HINT: c1\nWHY: The units column carries, and the attempts forget it.',
};

/** Replies with nonsense that no hint parser should accept. */
export const GARBAGE_FIXTURE: LlmFixture = {
  id: 'mentor-fixture-garbage',
  reply: 'zq#7 HINT?? ~~ carry carry <<L9>> ¿',
};

export const LLM_FIXTURES: readonly LlmFixture[] = [VALID_FIXTURE, GARBAGE_FIXTURE];
