import { describe, expect, it } from 'vitest';
import { promptOf, type ScoredBatch } from '../../rl/intervention.ts';
import { arithmeticProblem, isListlangProblem, parseHint, renderHint } from '../../tasks/index.ts';
import {
  batchOf,
  ctx,
  group,
  listProblem,
  noCarry,
  oneOpProblem,
  sum,
} from '../testing/scored-groups.ts';
import { CurriculumKeeper } from './curriculum.ts';
import { diagnose, diagnoseByReference, diagnoseGeneric } from './diagnostician.ts';
import { DEFAULT_INSTRUCTOR, instruct, retryOf } from './instructor.ts';
import { DEFAULT_MENTOR, MentorIntervention } from './mentor.ts';
import { createIntervention } from '../methods.ts';

describe('Diagnostician', () => {
  it('names a missed carry, with the frontier at the first right digits', () => {
    const d = diagnose(
      group(
        sum,
        ['158', '158', '1581', '159', '158', '158', '168', '158'].map((a) =>
          a === '168' ? '1689' : a,
        ),
      ),
    );
    expect(d.cause).toBe('missed-carry');
    expect(d.frontier).toBe(1);
    expect(d.evidence).toMatch(/drop the carry into the 2nd digit/);
    expect(d.confidence).toBeGreaterThan(0.5);
  });

  it('names a wrong digit that is not a carry', () => {
    const d = diagnose(group(sum, ['178', '198', '108', '178', '138', '118', '178', '148']));
    expect(d.cause).toBe('wrong-digit');
    expect(d.frontier).toBe(1);
  });

  it('names a length problem when attempts stop early', () => {
    const d = diagnose(group(noCarry, ['71', '71', '71', '71', '7', '71', '71', '71']));
    expect(d.cause).toBe('length');
    expect(d.frontier).toBe(2);
  });

  it('names malformed answers', () => {
    const d = diagnose(group(sum, ['', 'x', '1a', '', '', '168', '9', '']));
    expect(d.cause).toBe('format');
  });

  it('names a wrong op for listlang, and parse errors', () => {
    const p = listProblem();
    const ref = p.answer;
    const other = 'ridetuhl'
      .split('')
      .find(
        (c) =>
          c !== ref[1] &&
          !(isListlangProblem(p) && p.data.references.some((r) => r.startsWith(ref[0] + c))),
      )!;
    const d = diagnose(group(p, Array(8).fill(ref[0] + other)));
    expect(['wrong-op', 'runtime']).toContain(d.cause);
    expect(d.frontier).toBe(1);
    expect(diagnose(group(p, Array(8).fill('?!'))).cause).toBe('format');
  });
});

describe('Diagnostician by reference (a family without its own)', () => {
  it('names where the attempts leave the reference answer, in the family’s units', () => {
    // "168": six attempts keep "1" and break on the 2nd digit, two are wholly wrong.
    const d = diagnoseByReference(
      group(sum, ['158', '108', '198', '178', '138', '148', '999', '000']),
    );
    expect(d).toMatchObject({ cause: 'wrong-step', frontier: 1, support: 6, attempts: 8 });
    expect(d.confidence).toBeCloseTo(6 / 8);
    expect(d.evidence).toBe('6 of 8 answers get the 2nd digit wrong after 1 right digit');
  });

  it('names a policy that runs on past the answer a length failure, wherever it breaks', () => {
    const p = oneOpProblem(5);
    const other = [...'rsidoehtul'].find((op) => !p.data.references.includes(op)) as string;
    // Two ops where one is asked, the first of them wrong: still a matter of stopping.
    const d = diagnose(group(p, [...Array(6).fill(`${other}r`), other, `${p.answer}r`]));
    expect(d).toMatchObject({ cause: 'length', frontier: 0, support: 7 });
    expect(d.evidence).toBe('7 of 8 programs run on past 1 op: the program has 1');
    expect(instruct(d, p, 1)?.hint).toEqual({ kind: 'length', length: 1 });
  });

  it('says when the attempts stop early or run on where they break', () => {
    const d = diagnoseByReference(group(sum, ['16', '16', '16', '1689', '16', '16', '16', '7']));
    expect(d).toMatchObject({ cause: 'length', frontier: 2 });
    expect(d.evidence).toMatch(/after 2 right digits: the answer has 3$/);
  });
});

describe('the task-agnostic Diagnostician and mentor (mentor-generic)', () => {
  const unended = (g: ReturnType<typeof group>, n: number) => ({
    ...g,
    attempts: g.attempts.map((a, i) => (i < n ? { ...a, ended: false } : a)),
  });

  it('names answers that never end, and answers in characters no answer uses', () => {
    const cut = diagnoseGeneric(unended(group(sum, Array(8).fill('1689999')), 5));
    expect(cut).toMatchObject({ cause: 'no-end', support: 5, attempts: 8 });
    expect(cut.evidence).toBe('5 of 8 answers never end: they run to the length limit');
    const foreign = diagnoseGeneric(group(sum, [...Array(5).fill('1x8'), ...Array(3).fill('158')]));
    expect(foreign).toMatchObject({ cause: 'alphabet', support: 5, frontier: 1 });
    expect(foreign.evidence).toBe('5 of 8 answers use characters no answer uses ("x")');
    // Neither: read against the reference, as any family without a diagnostician of its own.
    const plain = group(sum, ['158', '108', '198', '178', '138', '148', '999', '000']);
    expect(diagnoseGeneric(plain)).toEqual(diagnoseByReference(plain));
  });

  it('hints only what any family reads: the length, never the carries', async () => {
    const generic = createIntervention('mentor-generic', 1);
    const builtIn = createIntervention('mentor', 1);
    // Every attempt drops the carry into the 2nd digit: the family's own mentor hints the carries.
    const batch = batchOf([group(sum, Array(8).fill('158'))]);
    const [own] = await builtIn.plan(batch, ctx());
    const [agnostic] = await generic.plan(batch, ctx());
    expect(promptOf(own.help).hint?.kind).toBe('carries');
    expect(own.diagnosis?.cause).toBe('missed-carry');
    expect(agnostic.diagnosis?.cause).toBe('wrong-step');
    expect(promptOf(agnostic.help)).toEqual({ hint: undefined, scaffold: '1' });
    // A length failure gets the length hint from either.
    const long = batchOf([group(sum, Array(8).fill('16'))]);
    const [short] = await generic.plan(long, ctx());
    expect(promptOf(short.help).hint).toEqual({ kind: 'length', length: 3 });
  });
});

describe('Instructor', () => {
  it('scaffolds what the attempts got right and leaves the breaking digit to the policy', () => {
    const d = diagnose(group(sum, Array(8).fill('158')));
    const help = instruct(d, sum, 1)!;
    expect(help.scaffold).toBe('1');
    // The carry into the 2nd digit, as a process hint: carries of column 0 only.
    expect(help.hint).toEqual({ kind: 'carries', carries: '1' });
    const round = parseHint('arithmetic', renderHint(help.hint!));
    expect(round.ok).toBe(true);
    expect(help.revealed).toBeCloseTo(1 / 3);
    // A passing re-attempt is learned whole, as the answer to the unhinted prompt.
    expect(help.hintTakenOut).toBe(true);
    const off = { ...DEFAULT_INSTRUCTOR, shapedLoss: undefined };
    expect(retryOf(help, off)).toMatchObject({
      creditScaffold: true,
      learn: 'unhinted-reweighted',
    });
    expect(retryOf(help, DEFAULT_INSTRUCTOR).learn).toBe('unhinted-shaped-drawn');
    expect(retryOf(help, { ...DEFAULT_INSTRUCTOR, shapedLoss: 'whole' }).learn).toBe(
      'unhinted-shaped',
    );
    // At the first digit the carry hint stands alone: nothing to credit, nothing to take out.
    const first = instruct(diagnose(group(sum, Array(8).fill('958'))), sum, 1)!;
    expect(first.scaffold).toBeUndefined();
    expect(first.hintTakenOut).toBe(false);
    expect(retryOf(first, off)).toEqual({ kind: 'retry', hint: first.hint, learn: 'as-sampled' });
  });

  it('hints the carries into a wrong digit that is not a missed carry, too', () => {
    const d = diagnose(group(sum, ['178', '198', '108', '178', '138', '118', '178', '148']));
    expect(d.cause).toBe('wrong-digit');
    const help = instruct(d, sum, 1)!;
    expect(help.scaffold).toBe('1');
    expect(help.hint).toEqual({ kind: 'carries', carries: '1' });
    // 47219 + 38951 = 86170 → "07168", carries 10110; breaking on the 4th digit: columns 0–2's.
    const long = arithmeticProblem('+', '47219', '38951');
    const far = diagnose(group(long, Array(8).fill('07100')));
    expect(far).toMatchObject({ cause: 'wrong-digit', frontier: 3 });
    expect(instruct(far, long, 1)!.hint).toEqual({ kind: 'carries', carries: '101' });
    expect(instruct(far, long, 1)!.scaffold).toBe('071');
  });

  it('reveals one more character per strength, never more than maxReveal', () => {
    const long = arithmeticProblem('+', '47219', '38951'); // 86170 → "07168"
    const d = diagnose(group(long, Array(8).fill('09999')));
    expect(d.frontier).toBe(1);
    const lengths = [1, 2, 3].map((s) => instruct(d, long, s)?.scaffold?.length ?? 0);
    expect(lengths).toEqual([1, 2, 3]);
    const far = { ...d, frontier: 4 };
    for (const s of [1, 2, 3]) {
      expect(instruct(far, long, s)!.scaffold).toBe('0716');
      expect(instruct(far, long, s)!.revealed).toBeLessThanOrEqual(DEFAULT_INSTRUCTOR.maxReveal);
    }
    const capped = { ...DEFAULT_INSTRUCTOR, maxReveal: 0.6 };
    for (const s of [1, 2, 3]) expect(instruct(far, long, s, capped)!.scaffold).toBe('071');
  });

  it('demonstrates through the breaking step, to be learned as if unhinted', () => {
    const d = diagnose(group(sum, Array(8).fill('158')));
    const help = instruct(d, sum, 1, {
      maxReveal: 0.6,
      processHints: true,
      familyHints: true,
      channel: 'demonstrate',
    })!;
    expect(help).toEqual({
      hint: { kind: 'prefix', text: '1' },
      revealed: 1 / 3,
      hintTakenOut: true,
    });
    const long = arithmeticProblem('+', '47219', '38951'); // 86170 → "07168"
    const far = { ...diagnose(group(long, Array(8).fill('09999'))), frontier: 2 };
    const shown = [1, 2, 3].map((s) =>
      instruct(far, long, s, {
        maxReveal: 0.6,
        processHints: true,
        familyHints: true,
        channel: 'demonstrate',
      })!,
    );
    expect(shown.map((h) => h.hint)).toEqual(
      [1, 2, 3].map(() => ({ kind: 'prefix', text: '071' })),
    );
    expect(shown.every((h) => h.revealed <= 0.6)).toBe(true);
  });

  it('gives every hint in a form parseHint accepts', () => {
    const p = listProblem();
    for (const answers of [Array(8).fill('?'), Array(8).fill('r'), Array(8).fill('xx')]) {
      const d = diagnose(group(p, answers));
      for (const s of [1, 2, 3]) {
        const h = instruct(d, p, s);
        if (h?.hint) expect(parseHint('listlang', renderHint(h.hint)).ok).toBe(true);
      }
    }
  });
});

describe('Curriculum keeper', () => {
  const failing = (level = 3): ScoredBatch => ({
    step: 1,
    level,
    round: 0,
    groups: [0, 1, 2, 3].map((i) => group(sum, Array(8).fill('158'), i)),
  });

  it('escalates one strength per round within a step', () => {
    const k = new CurriculumKeeper();
    expect([1, 2, 3, 4].map((r) => k.strength(r))).toEqual([1, 2, 3, 3]);
  });

  it('raises the base strength when help rarely rescues, lowers it when it always does', () => {
    const k = new CurriculumKeeper();
    const retry = (solved: boolean): ScoredBatch => ({
      ...failing(),
      round: 1,
      groups: [0, 1].map((i) =>
        group(sum, solved ? ['168', ...Array(7).fill('158')] : Array(8).fill('158'), i),
      ),
    });
    k.observeUnhinted(failing());
    for (let i = 0; i < 10 && k.state.baseStrength === 1; i++) k.observeHelped(retry(false));
    expect(k.state.baseStrength).toBe(2);
    for (let i = 0; i < 30 && k.state.baseStrength === 2; i++) k.observeHelped(retry(true));
    expect(k.state.baseStrength).toBe(1);
  });

  it('judges the base strength by its own round, not by the escalated rounds after it', () => {
    const k = new CurriculumKeeper();
    const retry = (round: number, solved: boolean): ScoredBatch => ({
      ...failing(),
      round,
      groups: [0, 1].map((i) =>
        group(sum, solved ? ['168', ...Array(7).fill('158')] : Array(8).fill('158'), i),
      ),
    });
    k.observeUnhinted(failing());
    // Round 1 never rescues, round 2 always does: the base strength must still go up.
    for (let i = 0; i < 10 && k.state.baseStrength === 1; i++) {
      k.observeHelped(retry(1, false));
      k.observeHelped(retry(2, true));
    }
    expect(k.state.baseStrength).toBe(2);
  });

  it('fades: fewer all-fail groups are helped as unhinted success returns', () => {
    const k = new CurriculumKeeper();
    const mostlyRight: ScoredBatch = {
      step: 1,
      level: 3,
      round: 0,
      groups: [group(sum, Array(8).fill('168'))],
    };
    k.observeUnhinted(failing());
    expect(k.select(failing(), ctx()).length).toBe(4);
    for (let i = 0; i < 40; i++) k.observeUnhinted(mostlyRight);
    expect(k.state.helpShare).toBe(0);
    expect(k.select(failing(), ctx()).length).toBe(0);
    // A level change starts over.
    k.observeUnhinted(failing(4));
    expect(k.state.helpShare).toBe(1);
  });

  it('helps a failing replayed group of an earlier level even when help has faded', () => {
    const k = new CurriculumKeeper();
    // At level 4 every unhinted answer passes (help faded out), but the replayed level-3 group
    // fails every time, and replayed groups do not count towards the level's success.
    const four = arithmeticProblem('+', '4721', '3891');
    const batch = batchOf(
      [
        group(four, Array(8).fill(four.answer), 0),
        group(four, Array(8).fill('0'), 1),
        group(sum, Array(8).fill('158'), 2),
      ],
      { step: 1, level: 4 },
    );
    const easyPassing = { ...batch, groups: [group(sum, Array(8).fill('168'), 2)] };
    for (let i = 0; i < 40; i++) {
      k.observeUnhinted(batch);
      k.observeUnhinted(easyPassing);
    }
    expect(k.state.unhinted).toBeCloseTo(0.5, 1);
    for (let i = 0; i < 40; i++) k.observeUnhinted({ ...batch, groups: [batch.groups[0]] });
    expect(k.state.helpShare).toBe(0);
    expect(k.select(batch, ctx({ level: 4 })).map((g) => g.group)).toEqual([2]);
  });
});

describe('MentorIntervention', () => {
  it('re-prompts all-fail groups with a diagnosis, a help and a sentence', async () => {
    const m = new MentorIntervention();
    const batch = batchOf(
      [group(sum, Array(8).fill('158'), 0), group(sum, ['168', ...Array(7).fill('158')], 1)],
      { step: 3 },
    );
    const plan = await m.plan(batch, ctx());
    expect(plan.map((r) => r.group)).toEqual([0]);
    expect(promptOf(plan[0].help).scaffold).toBe('1');
    expect(plan[0].diagnosis?.cause).toBe('missed-carry');
    expect(plan[0].note).toMatch(
      /drop the carry into the 2nd digit.*first digit \("1"\).*2nd digit is left to the policy/,
    );
    expect(plan[0].note).not.toMatch(/giving away/);
  });

  it('gives a failing replayed group of an earlier level its answer back, as a reminder', async () => {
    const four = arithmeticProblem('+', '4721', '3891');
    const batch = batchOf(
      [group(four, Array(8).fill('0000'), 0), group(sum, Array(8).fill('158'), 1)],
      { step: 3, level: 4 },
    );
    const plan = await new MentorIntervention().plan(batch, ctx({ level: 4 }));
    expect(plan.map((r) => r.group)).toEqual([0, 1]);
    // The level's own group gets a fresh attempt; the replayed one its answer, off-policy.
    expect(plan[0].help.kind).toBe('retry');
    expect(plan[1]).toMatchObject({
      help: { kind: 'demonstration', answer: '168', count: 1, weight: 'plain' },
      author: 'rules',
    });
    expect(promptOf(plan[1].help).hint).toBeUndefined();
    expect(promptOf(plan[1].help).scaffold).toBeUndefined();
    expect(plan[1].diagnosis?.cause).toBe('missed-carry');
    expect(plan[1].note).toMatch(
      /at level 3, which it had learned; I put its answer "168" in place of 1 of the 8 as a reminder/,
    );
    // Without reminders the replayed group gets the mentor's usual help.
    const usual = await new MentorIntervention({ ...DEFAULT_MENTOR, remind: false }).plan(
      batch,
      ctx({ level: 4 }),
    );
    expect(usual[1].help.kind).toBe('retry');
    expect(promptOf(usual[1].help).scaffold).toBe('1');
  });

  it('at a first-digit frontier hints the units carry first, and says so when a later round gives that digit away', async () => {
    // "168" is 861 units first; every attempt gets the units digit wrong.
    const m = new MentorIntervention();
    const failing = (round: number): ScoredBatch => ({
      step: 3,
      level: 3,
      round,
      groups: [group(sum, Array(8).fill('268'))],
    });
    const first = await m.plan(failing(0), ctx());
    expect(first[0].diagnosis?.frontier).toBe(0);
    // 2 + 9 carries: the hint says so and states no digit.
    expect(promptOf(first[0].help).hint).toEqual({ kind: 'carries', carries: '1' });
    expect(promptOf(first[0].help).scaffold).toBeUndefined();
    expect(first[0].note).toMatch(
      /I hinted the carry out of the units column \("c1"\); the 1st digit is left to the policy\.$/,
    );
    const second = await m.plan(failing(1), ctx({ round: 2 }));
    expect(promptOf(second[0].help).hint).toBeUndefined();
    expect(promptOf(second[0].help).scaffold).toBe('1');
    expect(second[0].note).toMatch(
      /^Round 2, still failing: .*1st digit wrong.*first digit \("1"\), giving away the 1st digit, where they broke; the 2nd digit is left to the policy\.$/,
    );
  });
});
