import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { promptOf, type ScoredBatch, type TrainContext } from '../../../rl/intervention.ts';
import {
  arithmeticProblem,
  createRng,
  registerFamily,
  verifyAnswer,
  type Rng,
} from '../../../tasks/index.ts';
import { customEntry } from '../../../tasks/custom/custom-entry.ts';
import { checkTask } from '../../../tasks/custom/task-check.ts';
import { createMentorApi } from '../../host/worker-api.ts';
import { diagnose } from '../diagnostician.ts';
import { DEFAULT_MENTOR, MentorIntervention } from '../mentor.ts';
import { DEFAULT_ADVISOR, LlmAdvisor, advicePrompt, advisorGrammar, judgeReply } from './agent.ts';
import { arithmeticTrainer } from '../../testing/arithmetic-trainer.ts';
import { GARBAGE_FIXTURE, VALID_FIXTURE } from './fixtures.ts';
import { loadTextGenerator, type TextGenerator } from './runtime.ts';

const MODELS = fileURLToPath(new URL('../../../../public/models', import.meta.url));

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

describe("the agent's hint grammar, from the task", () => {
  it('reads each shipped family its own notation', () => {
    expect(advisorGrammar('arithmetic')).toContain('units digit first');
    expect(advisorGrammar('listlang')).toContain('one-letter ops');
  });

  it('gives a task module a generic one, in its own units, never "undefined"', () => {
    const task = {
      id: 'grammar-reverse',
      label: 'Reverse',
      answerUnit: ['letter', 'letters'] as const,
      levels: { min: 2, max: 4 },
      sample: (level: number, rng: Rng) => {
        const w = Array.from({ length: level }, () => rng.pick([...'abcd'])).join('');
        return { text: w, answer: [...w].reverse().join('') };
      },
    };
    const checked = checkTask(task, 128);
    if (!checked.ok) throw new Error('the task does not check');
    const entry = customEntry(task, checked.checked);
    registerFamily(entry);
    const grammar = advisorGrammar('grammar-reverse');
    expect(grammar).toBe(
      'Answers are strings of letters. Hint forms: "#N" the answer has N letters; "pTEXT" the answer starts with these letters.',
    );
    const problem = entry.family.sample(3, createRng(1));
    const [system] = advicePrompt(diagnose(failing().groups[0]), problem, ['AB'], 1);
    expect(system.content).toContain(grammar);
    expect(system.content).not.toContain('undefined');
  });
});

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
    expect(promptOf(r.help)).toEqual({ hint: { kind: 'carries', carries: '1' }, scaffold: '1' });
    expect(r.note).toBe('The units column carries, and the attempts forget it.');
    expect(m.stats()).toMatchObject({ llm_calls: 1, llm_valid_rate: 1 });
    expect(m.stats().llm_ms_per_call).toBeGreaterThan(0);
  });

  it('falls back to the rules when the reply is invalid or false, and counts it', async () => {
    const garbage = await mentorWith(GARBAGE_FIXTURE.id);
    const [g] = await garbage.plan(failing(), ctx);
    expect(g.author).toBe('rules');
    expect(g.declined).toMatchObject({ by: 'llm', why: expect.stringMatching(/^unparseable/) });
    // The valid fixture's "c1" is false of a problem without a carry there.
    const valid = await mentorWith(VALID_FIXTURE.id);
    const [v] = await valid.plan(failing(noCarry), ctx);
    expect(v.author).toBe('rules');
    expect(v.declined).toMatchObject({ by: 'llm', why: expect.stringMatching(/^false/) });
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

describe('LLM figures: validity, share of hints used, latency', () => {
  it('counts the hints used among all interventions planned while it is on', async () => {
    const m = new MentorIntervention({ ...DEFAULT_MENTOR, llmPerStep: 2 });
    m.advisor = new LlmAdvisor(
      await loadTextGenerator(VALID_FIXTURE.id, { local: true, modelRoot: MODELS }),
    );
    // Three failing groups: the LLM is asked about two (its "c1" holds for the first, not the
    // second); the third gets the rules' help without asking.
    const batch = failing();
    batch.groups = [sum, noCarry, sum].map((p, i) => ({ ...failing(p).groups[0], group: i }));
    const plan = await m.plan(batch, ctx);
    expect(plan.map((r) => r.author)).toEqual(['llm', 'rules', 'rules']);
    expect(plan[1].declined).toMatchObject({ by: 'llm' });
    expect(plan[1].declined?.why).toMatch(/^false: "c1" is not true/);
    expect(plan[2].declined).toBeUndefined();
    const s = m.stats();
    expect(s).toMatchObject({ llm_calls: 2, llm_valid_rate: 0.5, llm_no_reply: 0 });
    // Its calls are spent for the step: the next round of the same step has rules alone.
    const again = await m.plan({ ...batch, round: 1 }, { ...ctx, round: 2 });
    expect(again.length).toBeGreaterThan(0);
    expect(m.stats().llm_calls).toBe(2);
    // A new step asks again.
    await m.plan(batch, { ...ctx, step: 1 });
    expect(m.stats().llm_calls).toBe(4);
    expect(s.llm_used_share).toBeCloseTo(1 / 3);
    expect(s.llm_ms_per_intervention).toBeCloseTo((s.llm_ms_per_call * 2) / 3);
    // A new agent starts its figures afresh; no agent, no figures.
    m.advisor = new LlmAdvisor(slowGenerator(0));
    expect(m.stats()).toEqual({ llm_calls: 0, llm_no_reply: 0 });
    m.advisor = null;
    expect(m.stats()).toEqual({});
  });
});

/** A generator that ignores the abort signal and replies after `ms` (never, when Infinity). */
function slowGenerator(ms: number, reply = VALID_FIXTURE.reply): TextGenerator & { calls: number } {
  const g = {
    modelId: 'slow-fake',
    calls: 0,
    generate(): Promise<string> {
      g.calls++;
      return new Promise((resolve) => {
        if (Number.isFinite(ms)) setTimeout(() => resolve(reply), ms);
      });
    },
    dispose: async () => {},
  };
  return g;
}

describe('the deadline: nobody waits on the LLM past it', () => {
  const opts = { ...DEFAULT_ADVISOR, deadlineMs: 50 };

  it('answers at the deadline even when the generator does not stop, and never overlaps two', async () => {
    const gen = slowGenerator(400);
    const advisor = new LlmAdvisor(gen, opts);
    const d = diagnose(failing().groups[0]);
    let t0 = performance.now();
    const late = await advisor.advise(d, sum, ['158'], 1);
    expect(performance.now() - t0).toBeLessThan(300);
    expect(late).toMatchObject({ ok: false, reason: 'no reply: no reply within 50 ms' });
    // The late generation still runs: the next call does not start another, and answers at once.
    t0 = performance.now();
    const busy = await advisor.advise(d, sum, ['158'], 1);
    expect(performance.now() - t0).toBeLessThan(30);
    expect(busy).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/still being generated/),
    });
    expect(gen.calls).toBe(1);
    expect(advisor.stats).toMatchObject({ calls: 2, failed: 2, valid: 0 });
    // Once it has ended, the agent is asked again.
    await new Promise((r) => setTimeout(r, 450));
    await advisor.advise(d, sum, ['158'], 1);
    expect(gen.calls).toBe(2);
  });

  it('a trainer step with an LLM that never replies takes the rules’ help, within the LLM deadline', async () => {
    const mentor = new MentorIntervention();
    mentor.advisor = new LlmAdvisor(slowGenerator(Infinity), opts);
    // Far more than the LLM's deadline: the plan is never cut off by the trainer.
    const trainer = arithmeticTrainer(mentor, 5000);
    const t0 = performance.now();
    const m = await trainer.trainStep();
    expect(performance.now() - t0).toBeLessThan(2500);
    expect(m.events).toEqual([]);
    expect(m.interventions.length).toBeGreaterThan(0);
    expect(m.interventions.every((r) => r.author === 'rules')).toBe(true);
    expect(m.interventions.map((r) => r.declined?.why)).toContain(
      'no reply: no reply within 50 ms',
    );
    expect(m.intervention_stats).toMatchObject({ llm_valid_rate: 0, llm_used_share: 0 });
    expect(m.intervention_stats?.llm_no_reply).toBeGreaterThan(0);
  });
});
