import { describe, expect, it } from 'vitest';
import { referenceCharsOf, teacherCharsOf } from '../../rl/reprompt/answers.ts';
import { checkReprompt } from '../../rl/reprompt/checks.ts';
import { getFamily, workedProblem } from '../../tasks/index.ts';
import { createIntervention } from '../methods.ts';
import { batchOf, ctx, group, sum } from '../testing/scored-groups.ts';

// 47281 × 6 = 283686; the teacher writes 60,84,61,34,82>283686 (own), 06,48,16,43,28>283686 (other).
const p = workedProblem('47281', 6);
const failed = () =>
  batchOf(
    [
      group(
        p,
        Array.from({ length: 8 }, () => '60,84,61,34>3416'),
      ),
    ],
    {
      level: 5,
    },
  );

async function helpOf(method: string, teacher: 'own' | 'other' = 'own') {
  const plans = await createIntervention(method, 1, undefined, teacher).plan(
    failed(),
    ctx({ level: 5 }),
  );
  expect(plans).toHaveLength(1);
  return plans[0].help;
}

describe('rivals that show working get it from a teacher (worked)', () => {
  it("demonstrate the teacher's worked solution, in the notation asked for", async () => {
    for (const m of ['offpolicy', 'offpolicy-full', 'offpolicy-plain']) {
      expect(await helpOf(m)).toMatchObject({ answer: '60,84,61,34,82>283686' });
      expect(await helpOf(m, 'other')).toMatchObject({ answer: '06,48,16,43,28>283686' });
    }
  });

  it('the answer-only demonstration is the product alone, in no notation of working', async () => {
    const help = await helpOf('offpolicy-answer', 'other');
    expect(help).toMatchObject({ kind: 'demonstration', answer: '283686', weight: 'shaped' });
  });

  it("the solution prefix is the start of the teacher's working, forced (worked reads no prefix hint)", async () => {
    const own = await helpOf('prefix');
    const other = await helpOf('prefix', 'other');
    // 50% of the 21 characters of either notation.
    expect(own).toMatchObject({ kind: 'retry', scaffold: '60,84,61,34' });
    expect(other).toMatchObject({ kind: 'retry', scaffold: '06,48,16,43' });
    expect(own).not.toHaveProperty('hint');
    // What the trainer accepts (a prefix hint was refused on worked: its base reads none).
    expect(() =>
      checkReprompt({ group: 0, help: own, note: '' }, p, getFamily(p.family), 8),
    ).not.toThrow();
  });

  it("counts the teacher's characters as compute and only the stated product in the ledger", async () => {
    const demo = await helpOf('offpolicy');
    expect(teacherCharsOf(demo, [])).toBe(21);
    expect(referenceCharsOf(demo, p)).toBe(6);
    const prefix = await helpOf('prefix');
    expect(teacherCharsOf(prefix, [])).toBe(11);
    expect(referenceCharsOf(prefix, p)).toBe(0);
    const answer = await helpOf('offpolicy-answer');
    expect([teacherCharsOf(answer, []), referenceCharsOf(answer, p)]).toEqual([6, 6]);
  });

  it('where the reference is the whole answer, it is the demonstration in either notation', async () => {
    const batch = batchOf([
      group(
        sum,
        Array.from({ length: 8 }, () => '000'),
      ),
    ]);
    for (const teacher of ['own', 'other'] as const) {
      const [plan] = await createIntervention('offpolicy', 1, undefined, teacher).plan(
        batch,
        ctx(),
      );
      expect(plan.help).toMatchObject({ kind: 'demonstration', answer: sum.answer });
    }
  });
});

describe('static hints on worked', () => {
  it("give every failed group the library's one hint, the number of columns, at any drawn strength", async () => {
    for (const method of ['static', 'static-unhinted']) {
      for (let step = 0; step < 12; step++) {
        const plans = await createIntervention(method, 1).plan(failed(), ctx({ level: 5, step }));
        expect(plans).toHaveLength(1);
        expect(plans[0].help).toMatchObject({ kind: 'retry', hint: { kind: 'steps', steps: 5 } });
      }
    }
  });
});
