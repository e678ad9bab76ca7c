import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { createMentorApi } from './worker-api.ts';
import { arithmeticTrainer } from '../testing/arithmetic-trainer.ts';
import { RemoteIntervention, inProcessMentor, type MentorLink } from './remote.ts';

const trainer = (intervention: RemoteIntervention) => arithmeticTrainer(intervention, 200);

/** A mentor that never answers: its end of the channel has nothing behind it. */
function deadMentor(): MentorLink {
  const channel = new MessageChannel();
  return {
    endpoint: channel.port2,
    dispose() {
      channel.port1.close();
      channel.port2.close();
    },
  };
}

/** A mentor that plans but never answers observe or stats. */
function muteMentor(): MentorLink {
  const channel = new MessageChannel();
  const never = () => new Promise<never>(() => {});
  Comlink.expose({ ...createMentorApi(), observe: never, stats: never }, channel.port1);
  return {
    endpoint: channel.port2,
    dispose() {
      channel.port1.close();
      channel.port2.close();
    },
  };
}

describe('the mentor behind a MessageChannel', () => {
  it('re-prompts the all-fail groups of an untrained policy', async () => {
    const remote = new RemoteIntervention('mentor', 1, inProcessMentor);
    const m = await trainer(remote).trainStep();
    expect(m.all_fail_frac).toBe(1);
    expect(m.interventions.length).toBeGreaterThan(0);
    expect(m.interventions[0].author).toBe('rules');
    expect(m.interventions[0].note.length).toBeGreaterThan(10);
    expect(m.events).toEqual([]);
  });

  it('when the mentor does not answer: the step goes on without help, says so, and the mentor restarts', async () => {
    const links: string[] = [];
    const remote = new RemoteIntervention('mentor', 1, () => {
      links.push(links.length === 0 ? 'dead' : 'live');
      return links.length === 1 ? deadMentor() : inProcessMentor();
    });
    const t = trainer(remote);
    const first = await t.trainStep();
    expect(first.hinted_frac).toBe(0);
    expect(first.events.join(' ')).toMatch(
      /mentor plan failed at step 0: no answer within 200 ms; going on without it/,
    );
    expect(remote.restarts).toBe(1);
    expect(links).toEqual(['dead', 'live']);
    const second = await t.trainStep();
    expect(second.interventions.length).toBeGreaterThan(0);
  });

  it('when the mentor stops answering observe: the step goes on within the deadline and the mentor restarts', async () => {
    const links: string[] = [];
    const remote = new RemoteIntervention('mentor', 1, () => {
      links.push(links.length === 0 ? 'mute' : 'live');
      return links.length === 1 ? muteMentor() : inProcessMentor();
    });
    const first = await trainer(remote).trainStep();
    expect(first.interventions.length).toBeGreaterThan(0);
    expect(first.events).toEqual([
      'mentor observe failed at step 0: no answer within 200 ms; going on without it',
    ]);
    expect(remote.restarts).toBe(1);
    expect(links).toEqual(['mute', 'live']);
  });
});
