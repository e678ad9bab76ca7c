import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ScoredBatch, TrainContext } from '../../rl/intervention.ts';
import { arithmeticProblem, verifyAnswer } from '../../tasks/index.ts';
import { createMentorApi } from '../api.ts';
import { MentorIntervention } from '../mentor.ts';
import { LlmAdvisor, judgeReply } from './agent.ts';
import { GARBAGE_FIXTURE, VALID_FIXTURE } from './fixtures.ts';
import { loadTextGenerator } from './runtime.ts';

const MODELS = fileURLToPath(new URL('../../../public/models', import.meta.url));

// 472 + 389: the units column carries (2 + 9 = 11), so "c1" is true of it.
const sum = arithmeticProblem('+', '472', '389');
// 354 + 263: no carry out of the units column, so "c1" is false.
const noCarry = arithmeticProblem('+', '354', '263');

function failing(problem = sum): ScoredBatch {
  const attempts = Array.from({ length: 8 }, () => {
    const v = verifyAnswer(problem, '158');
    return { answer: '158', ended: true, reward: v.reward, feedback: v.feedback, sampledTokens: 4 };
  });
  return { step: 0, level: 3, round: 0, groups: [{ group: 0, problem, attempts }] };
}

const ctx: TrainContext = {
  step: 0,
  level: 3,
  groupSize: 8,
  round: 1,
  maxRounds: 3,
  evalAccuracy: null,
  stepsAtLevel: 0,
};

async function mentorWith(fixture: string): Promise<MentorIntervention> {
  const m = new MentorIntervention();
  m.advisor = new LlmAdvisor(await loadTextGenerator(fixture, { local: true, modelRoot: MODELS }));
  return m;
}

describe('judging an LLM reply', () => {
  it('accepts a parseable, true, non-leaking hint and keeps its sentence', () => {
    const r = judgeReply('HINT: c1\nWHY: The units column carries.', sum, 0.6);
    expect(r).toEqual({
      ok: true,
      hint: { kind: 'carries', carries: '1' },
      sentence: 'The units column carries.',
    });
  });
  it('rejects unparseable, false and answer-leaking hints, saying why', () => {
    expect(judgeReply('no hint here', sum, 0.6)).toMatchObject({
      ok: false,
      reason: 'unparseable',
    });
    expect(judgeReply('HINT: q7', sum, 0.6)).toMatchObject({ ok: false, reason: 'unparseable' });
    expect(judgeReply('HINT: c1', noCarry, 0.6)).toMatchObject({ ok: false, reason: 'false' });
    expect(judgeReply('HINT: p16', sum, 0.6)).toMatchObject({ ok: false, reason: 'leaking' });
  });
});

describe('the LLM agent in the mentor team (real Transformers.js, offline fixtures)', () => {
  it('writes the hint and the sentence of an intervention when its reply is valid', async () => {
    const m = await mentorWith(VALID_FIXTURE.id);
    const [r] = await m.plan(failing(), ctx);
    expect(r.author).toBe('llm');
    expect(r.hint).toEqual({ kind: 'carries', carries: '1' });
    expect(r.scaffold).toBe('1');
    expect(r.note).toBe('The units column carries, and the attempts forget it.');
    expect(m.stats()).toMatchObject({ llm_calls: 1, llm_valid_rate: 1 });
    expect(m.stats().llm_ms_per_call).toBeGreaterThan(0);
  });

  it('falls back to the rules when the reply is invalid or false, and counts it', async () => {
    const garbage = await mentorWith(GARBAGE_FIXTURE.id);
    const [g] = await garbage.plan(failing(), ctx);
    expect(g.author).toBe('rules');
    expect(g.note).toMatch(/LLM hint rejected — unparseable/);
    // The valid fixture's "c1" is false of a problem without a carry there.
    const valid = await mentorWith(VALID_FIXTURE.id);
    const [v] = await valid.plan(failing(noCarry), ctx);
    expect(v.author).toBe('rules');
    expect(v.note).toMatch(/LLM hint rejected — false/);
    expect(valid.stats()).toMatchObject({ llm_calls: 1, llm_valid_rate: 0 });
  });

  it('a missing model is a clear message, and the mentor keeps working on rules', async () => {
    const api = createMentorApi();
    api.configure('mentor', 1);
    const r = await api.enableLlm({
      modelId: 'no-such-model',
      source: { local: true, modelRoot: MODELS },
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(
      /no-such-model.*not found.*the mentor goes on with its rules/s,
    );
    const plan = await api.plan(failing(), ctx);
    expect(plan[0].author).toBe('rules');
    const other = createMentorApi();
    other.configure('static', 1);
    expect(
      await other.enableLlm({
        modelId: VALID_FIXTURE.id,
        source: { local: true, modelRoot: MODELS },
      }),
    ).toMatchObject({ ok: false });
  });
});
