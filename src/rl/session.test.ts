import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import type { StepMetrics } from './metrics.ts';
import { TrainerSession, type SessionStatus, type Steppable } from './session.ts';

/** A trainer stand-in whose steps take a few milliseconds and count themselves. */
class FakeTrainer implements Steppable {
  step = 0;
  level = 3;
  rollouts = [];
  async trainStep(): Promise<StepMetrics> {
    await new Promise((r) => setTimeout(r, 2));
    const m = { step: this.step, level: this.level } as StepMetrics;
    this.step++;
    return m;
  }
  setLevel(level: number): void {
    this.level = level;
  }
}

describe('TrainerSession over a MessageChannel', () => {
  it('steps, plays, pauses, resumes and stops, reporting every step and status', async () => {
    const channel = new MessageChannel();
    const steps: StepMetrics[] = [];
    const statuses: SessionStatus[] = [];
    const trainer = new FakeTrainer();
    const session = new TrainerSession(trainer, {
      onStep: (m) => steps.push(m),
      onStatus: (s) => statuses.push(s),
    });
    Comlink.expose(
      {
        step: () => session.step(),
        play: () => session.play(),
        pause: () => session.pause(),
        stop: () => session.stop(),
        setLevel: (l: number) => session.setLevel(l),
        status: () => session.status(),
      },
      channel.port1,
    );
    const remote = Comlink.wrap<{
      step(): Promise<StepMetrics | null>;
      play(): void;
      pause(): void;
      stop(): void;
      setLevel(l: number): void;
      status(): SessionStatus;
    }>(channel.port2);

    expect((await remote.step())?.step).toBe(0);
    await remote.play();
    await new Promise((r) => setTimeout(r, 60));
    await remote.pause();
    await session.settled();
    const paused = (await remote.status()).step;
    expect(paused).toBeGreaterThan(3);
    await new Promise((r) => setTimeout(r, 30));
    expect((await remote.status()).step).toBe(paused);

    await remote.setLevel(4);
    await remote.play();
    await new Promise((r) => setTimeout(r, 30));
    await remote.stop();
    await session.settled();
    const stopped = (await remote.status()).step;
    expect(stopped).toBeGreaterThan(paused);
    expect(await remote.step()).toBeNull();
    expect(steps.map((m) => m.step)).toEqual(Array.from({ length: stopped }, (_, i) => i));
    expect(steps.at(-1)?.level).toBe(4);
    expect(statuses.map((s) => s.state)).toEqual([
      'running',
      'paused',
      'paused',
      'running',
      'stopped',
    ]);
    channel.port1.close();
    channel.port2.close();
  });

  it('stops by itself after maxSteps and reports a failing step as an error', async () => {
    const session = new TrainerSession(new FakeTrainer(), {}, 5);
    session.play();
    await session.settled();
    expect(session.status()).toMatchObject({ state: 'stopped', step: 5 });

    const broken = new FakeTrainer();
    broken.trainStep = () => Promise.reject(new Error('device lost'));
    const failing = new TrainerSession(broken);
    expect(await failing.step()).toBeNull();
    expect(failing.status()).toMatchObject({ state: 'error', message: 'device lost' });
  });
});
