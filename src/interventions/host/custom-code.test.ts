import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { arithmeticTrainer } from '../testing/arithmetic-trainer.ts';
import type { ImportCode } from '../../platform/import-from-blob.ts';
import { RemoteIntervention, inProcessMentor } from './remote.ts';
import type { MentorLoaded } from './worker-api.ts';

// Node imports no blob: URL; a data: URL is the same module.
const importFromData: ImportCode = async (code) =>
  (await import(
    /* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`
  )) as Record<string, unknown>;

const LENGTH_HINT = readFileSync('docs/examples/length-hint.js', 'utf8');

function custom(code: string | null) {
  const loaded: MentorLoaded[] = [];
  const remote = new RemoteIntervention({ code, task: 'arithmetic' }, 1, () =>
    inProcessMentor(importFromData),
  );
  remote.onConfigured = (l) => loaded.push(l);
  const t = arithmeticTrainer(remote, 300);
  return { remote, t, loaded };
}

const settle = () => new Promise((r) => setTimeout(r, 50));

describe("the page's custom mentor: the person's code in the mentor worker", () => {
  it('loads the length-hint example and helps the all-fail groups, its notes in the log', async () => {
    const { t, loaded } = custom(LENGTH_HINT);
    const m = await t.trainStep();
    expect(loaded).toEqual([{ ok: true, name: 'length-hint' }]);
    expect(m.all_fail_frac).toBe(1);
    expect(m.interventions.length).toBe(4);
    expect(m.interventions[0].note).toMatch(/^All 4 failed; hinted the length/);
    expect(m.events).toEqual([]);
  });

  it('with no code applied gives no help, and new code takes effect at the next step', async () => {
    const { remote, t, loaded } = custom(null);
    expect((await t.trainStep()).interventions).toEqual([]);
    remote.setCode(LENGTH_HINT);
    expect((await t.trainStep()).interventions.length).toBe(4);
    expect(loaded).toEqual([
      { ok: true, name: null },
      { ok: true, name: 'length-hint' },
    ]);
  });

  it.each([
    ['export default {', 'does not load'],
    ['throw new Error("no config");', 'threw at start-up'],
    ['export default () => { throw new Error("bad seed"); };', 'threw at start-up'],
    ['export const x = 1;', 'has the wrong shape'],
  ])(
    'a module that cannot be used (%s) is a fault with a message, and no help',
    async (code, fault) => {
      const { t, loaded } = custom(code);
      const m = await t.trainStep();
      expect(loaded).toMatchObject([{ ok: false, fault }]);
      expect((loaded[0] as { message: string }).message.length).toBeGreaterThan(3);
      expect(m.interventions).toEqual([]);
    },
  );

  it('says where code that does not parse stops parsing', async () => {
    const { loaded } = custom('const a = 1;\nexport default { plan() { return [ }; };');
    await settle();
    expect(loaded).toEqual([
      {
        ok: false,
        fault: 'does not load',
        message: "Unexpected token '}' (near line 2, column 36)",
      },
    ]);
  });

  it.each([
    ['throws', 'plan() { throw new Error("boom"); }', /custom plan failed at step 0: boom/],
    ['never answers', 'plan() { return new Promise(() => {}); }', /no answer within 300 ms/],
    [
      'returns far too many',
      'plan(b) { return Array.from({ length: 10000 }, () => ({ group: 0 })); }',
      /plan returned 10000 reprompts for a batch of 4 groups/,
    ],
    ['returns garbage', 'plan() { return 42; }', /custom plan returned number, not a list/],
    [
      'returns malformed reprompts',
      'plan() { return [{ group: 0, help: { kind: "magic" }, note: "x" }]; }',
      /reprompt for group 0 rejected/,
    ],
  ])(
    'a plan that %s costs the step its help, with an event saying what, and the run goes on',
    async (_, plan, event) => {
      const { remote, t } = custom(`export default { name: 'hostile', ${plan} };`);
      const first = await t.trainStep();
      expect(first.interventions).toEqual([]);
      expect(first.events.join('\n')).toMatch(event);
      await settle();
      const second = await t.trainStep();
      expect(second.step).toBe(1);
      expect(remote.name).toBe('custom');
    },
  );
});
