import { describe, expect, it } from 'vitest';
import { referenceCharsOf, teacherCharsOf } from '../../rl/reprompt/answers.ts';
import { createRng, workedProblem } from '../../tasks/index.ts';
import { createIntervention } from '../methods.ts';
import { batchOf, ctx, group } from '../testing/scored-groups.ts';
import { diagnose } from './diagnostician.ts';
import { DEFAULT_INSTRUCTOR, instruct, retryOf } from './instructor.ts';
import { DEFAULT_MENTOR, MentorIntervention } from './mentor.ts';
import { narrate } from './narrator.ts';
import { remind } from './reminder.ts';

// 47281 × 6 = 283686, worked 60,84,61,34,82>283686 (each column: digit, then carry).
const p = workedProblem('47281', 6);

describe('the mentor reads the policy’s own working (worked)', () => {
  it('names the first broken step and its cause, from the working alone', () => {
    const d = diagnose(
      group(p, [
        '60,84,21,34,82>284686',
        '60,84,21,34,82>284686',
        '60,84,21,44,82>2',
        '60,84,21,34,82>284686',
        '60,84,21,34,82>284686',
        '60,84,21,34,82>284686',
        '>283680',
        '60,84,71,34,82>28',
      ]),
    );
    expect(d).toMatchObject({
      cause: 'missed-carry',
      support: 6,
      frontier: 6,
      ownWorking: '60,84,',
    });
    expect(d.evidence).toBe('6 of 8 attempts skip the carry into column 3');
    // The scaffold is all of that working, its mark included: the log says so.
    expect(narrate(d, p, instruct(d, p, 1)!, 1)).toContain(
      'I repeated the working they wrote right ("60,84") and "," to go on to the next column',
    );
  });

  it('teaches without telling: its own right working, the mark to go on, the number of columns', () => {
    const stopped = Array.from({ length: 8 }, () => '60,84,61,34>3416');
    const d = diagnose(group(p, stopped));
    expect(d).toMatchObject({ cause: 'length', ownWorking: '60,84,61,34' });
    expect(d.evidence).toBe('8 of 8 attempts stop after 4 of the 5 columns');
    const lesson = instruct(d, p, 1);
    expect(lesson).toEqual({
      hint: { kind: 'steps', steps: 5 },
      scaffold: '60,84,61,34,',
      revealed: 0,
      hintTakenOut: true,
    });
    expect(referenceCharsOf(retryOf(lesson!, DEFAULT_INSTRUCTOR), p)).toBe(0);
    expect(narrate(d, p, lesson!, 1)).toBe(
      '8 of 8 attempts stop after 4 of the 5 columns; I repeated the working they wrote right ("60,84,61,34") and "," to go on to the next column and hinted how many columns a row of the working has ("k5"); the next step is the policy\'s own, and no character of the answer is shown, and what the re-attempt gets right is learned as if unhinted.',
    );
    // Where it wrote no working, the number of columns alone.
    const bare = diagnose(
      group(
        p,
        Array.from({ length: 8 }, () => '283680'),
      ),
    );
    expect(bare.cause).toBe('no-working');
    expect(bare.ownWorking).toBe('');
    expect(instruct(bare, p, 1)).toEqual({
      hint: { kind: 'steps', steps: 5 },
      revealed: 0,
      hintTakenOut: false,
    });
    // A wrong product after right working: the working, the end mark, the product left to it.
    const copy = diagnose(
      group(
        p,
        Array.from({ length: 8 }, () => '60,84,61,34,82>283688'),
      ),
    );
    expect(copy).toMatchObject({ cause: 'copy' });
    expect(instruct(copy, p, 1)).toMatchObject({ scaffold: '60,84,61,34,82>', revealed: 0 });
    // Columns past the last one: the working, then the end mark.
    const extra = diagnose(
      group(
        p,
        Array.from({ length: 8 }, () => '60,84,61,34,82,00>283686'),
      ),
    );
    expect(instruct(extra, p, 1)).toMatchObject({ scaffold: '60,84,61,34,82>' });
  });

  it('shows no character of the reference over a run of plans, and reminds with nothing', async () => {
    const mentor = new MentorIntervention(DEFAULT_MENTOR);
    const answers = ['60,84,21,34,82>284686', '60,84,61>416', '>1', '', '60', '60,84,61,34>3416'];
    const groups = answers.map((a, i) =>
      group(
        p,
        Array.from({ length: 8 }, () => a),
        i,
      ),
    );
    for (let round = 1; round <= 3; round++) {
      const plans = await mentor.plan(
        batchOf(groups, { round: round - 1, level: 5 }),
        ctx({ round, level: 5 }),
      );
      expect(plans.length).toBeGreaterThan(0);
      for (const r of plans) expect(referenceCharsOf(r.help, p)).toBe(0);
    }
    expect(remind(groups[0], diagnose(groups[0]), ctx())).toBeNull();
  });

  it('gives a failing replayed group its usual lesson, where no reminder can be given', async () => {
    const stopped = group(
      p,
      Array.from({ length: 8 }, () => '60,84,61,34>3416'),
    );
    const replayed = batchOf([stopped], { step: 3, level: p.level + 1 });
    const plan = await new MentorIntervention(DEFAULT_MENTOR).plan(
      replayed,
      ctx({ level: p.level + 1 }),
    );
    expect(plan).toHaveLength(1);
    expect(plan[0].help).toMatchObject({ kind: 'retry' });
    expect(referenceCharsOf(plan[0].help, p)).toBe(0);
    // The same lesson as the variant that never reminds.
    const usual = await new MentorIntervention({ ...DEFAULT_MENTOR, remind: false }).plan(
      replayed,
      ctx({ level: p.level + 1 }),
    );
    expect(plan).toEqual(usual);
  });

  describe('with a two-digit multiplier: partial products, then their sum', () => {
    // 47 × 36 = 1692, worked 24,82+12,41#20,90,60,10>1692.
    const q = workedProblem('47', 36);

    it('names the row of the broken step, the sum read from the rows', () => {
      const d = diagnose(
        group(q, [
          ...Array.from({ length: 5 }, () => '24,82+12,41#20,90,50,10>1592'),
          '24,82+12,21#20,90,40,10>1492',
          '>1692',
          '24,82',
        ]),
      );
      expect(d).toMatchObject({
        cause: 'wrong-step',
        support: 5,
        ownWorking: '24,82+12,41#20,90,',
      });
      expect(d.evidence).toBe('5 of 8 attempts add column 3 of the sum wrongly');
      const carry = diagnose(
        group(
          q,
          Array.from({ length: 8 }, () => '24,82+12,21#20,90,40,10>1492'),
        ),
      );
      expect(carry.evidence).toBe('8 of 8 attempts skip the carry into column 2 of row 2');
    });

    it('goes on with the mark the row calls for, and shows no character of the answer', () => {
      const one = diagnose(
        group(
          q,
          Array.from({ length: 8 }, () => '24,82>282'),
        ),
      );
      expect(one.evidence).toBe(
        '8 of 8 attempts write 1 partial product where the multiplier has 2 digits',
      );
      const lesson = instruct(one, q, 1)!;
      expect(lesson).toEqual({
        hint: { kind: 'steps', steps: 2 },
        scaffold: '24,82+',
        revealed: 0,
        hintTakenOut: true,
      });
      expect(referenceCharsOf(retryOf(lesson, DEFAULT_INSTRUCTOR), q)).toBe(0);
      const noSum = diagnose(
        group(
          q,
          Array.from({ length: 8 }, () => '24,82+12,41>1692x'),
        ),
      );
      expect(noSum.evidence).toBe('8 of 8 attempts stop before the sum');
      expect(instruct(noSum, q, 1)?.scaffold).toBe('24,82+12,41#');
      expect(narrate(noSum, q, instruct(noSum, q, 1)!, 1)).toContain(
        'and "#" to go on to their sum',
      );
      const short = diagnose(
        group(
          q,
          Array.from({ length: 8 }, () => '24,82+12,41#20,90,60>692'),
        ),
      );
      expect(short.evidence).toBe('8 of 8 attempts stop after 3 of the 4 columns of the sum');
      expect(instruct(short, q, 1)?.scaffold).toBe('24,82+12,41#20,90,60,');
    });
  });

  describe("the factorial's other hint sources (docs/protocol.md, Amendment 2)", () => {
    const stopped = group(
      p,
      Array.from({ length: 8 }, () => '60,84,61,34>3416'),
    );
    const d = diagnose(stopped);

    it("the teacher's whole working, forced, the product left to the policy", () => {
      const opts = { ...DEFAULT_INSTRUCTOR, source: 'teacher' as const };
      const lesson = instruct(d, p, 1, opts);
      expect(lesson).toEqual({ scaffold: '60,84,61,34,82>', revealed: 0, hintTakenOut: false });
      expect(narrate(d, p, lesson!, 1)).toBe(
        '8 of 8 attempts stop after 4 of the 5 columns; I forced the teacher\'s working ("60,84,61,34,82") and ">" to end the working there; the next step is the policy\'s own, and no character of the answer is shown.',
      );
      const help = retryOf(lesson!, opts);
      expect(referenceCharsOf(help, p)).toBe(0);
      // The teacher's part: what the group's own answers did not write ("82>" and the ",").
      expect(
        teacherCharsOf(
          help,
          stopped.attempts.map((a) => a.answer),
        ),
      ).toBe(4);
    });

    it("a random step: the mentor's kind of help, cut at a random column of the right working", () => {
      const opts = { ...DEFAULT_INSTRUCTOR, source: 'random-step' as const };
      const rng = createRng(5);
      const seen = new Set<string>();
      let hinted = 0;
      for (let i = 0; i < 200; i++) {
        const lesson = instruct(d, p, 1, opts, rng.fork(i));
        if (!lesson) continue;
        seen.add(lesson.scaffold ?? '');
        if (lesson.hint) hinted++;
        expect(lesson.revealed).toBe(0);
        expect(referenceCharsOf(retryOf(lesson, opts), p)).toBe(0);
      }
      // Every cut from none to all four right columns, each followed by the mark to go on.
      expect([...seen].sort()).toEqual(['', '60,', '60,84,', '60,84,61,', '60,84,61,34,']);
      expect(narrate(d, p, { scaffold: '60,84,', hintTakenOut: false }, 1)).toContain(
        'I repeated the first 2 of the 4 columns they wrote right ("60,84") and "," to go on',
      );
      expect(hinted).toBeGreaterThan(60);
      expect(hinted).toBeLessThan(140);
      // From strength 2 on, the number of columns always, as the mentor gives it.
      expect(instruct(d, p, 2, opts, rng)?.hint).toEqual({ kind: 'steps', steps: 5 });
      expect(() => instruct(d, p, 1, opts)).toThrow(/source of chance/);
    });

    it('learned under the help where the cell says so, unhinted otherwise', () => {
      const lesson = instruct(d, p, 1)!;
      expect(retryOf(lesson, { ...DEFAULT_INSTRUCTOR, underHelp: true }).learn).toBe('as-sampled');
      expect(retryOf(lesson, DEFAULT_INSTRUCTOR).learn).toBe('unhinted-shaped-drawn');
    });

    it('each cell is a method of its own, reproducible from its seed', async () => {
      const plan = async (method: string, seed: number) =>
        (
          await createIntervention(method, seed).plan(
            batchOf([stopped], { level: 5 }),
            ctx({ level: 5, round: 1 }),
          )
        ).map((r) => r.help);
      for (const m of ['random-step', 'random-step-sampled', 'random-step-cd'])
        expect(await plan(m, 3)).toEqual(await plan(m, 3));
      expect((await plan('teacher-sampled', 1))[0]).toMatchObject({
        scaffold: '60,84,61,34,82>',
        learn: 'as-sampled',
      });
      expect((await plan('mentor-sampled', 1))[0]).toMatchObject({
        scaffold: '60,84,61,34,',
        learn: 'as-sampled',
      });
      // Distillation needs a hint to distil from; the teacher's lesson has none.
      expect(await plan('teacher-cd', 1)).toEqual(await plan('teacher-working', 1));
      expect((await plan('mentor-cd', 1))[0]).toHaveProperty('distill');
    });
  });
});
