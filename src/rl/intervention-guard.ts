import type { Intervention } from './intervention.ts';

function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** Steps in a row with a failed call after which the intervention is set aside. */
export const SET_ASIDE_AFTER = 3;
/** Steps it is first set aside for; doubled each time it fails again when asked, up to the most. */
export const FIRST_BACK_OFF = 10;
export const MOST_BACK_OFF = 640;

/**
 * The trainer's calls on its intervention, each within the deadline. A failure or a missed
 * deadline costs that step the help (an event, then recover()), never the run; the rest of the
 * step makes no further calls, so a dead mentor costs at most one deadline per step. After
 * SET_ASIDE_AFTER steps in a row with a failure it is set aside: not asked at all, so the steps go
 * on as without it at full speed, until a back-off has passed (FIRST_BACK_OFF steps, doubled each
 * time it fails again once asked). A step without a failure ends the row.
 */
export class InterventionGuard {
  /** The step at which a call failed: the intervention is not asked again in that step. */
  private downAt = -1;
  /** Steps in a row with a failure, the last of them, and the first step it is asked again. */
  private inRow = 0;
  private lastFailed = -2;
  private asideUntil = -1;
  private backOff = FIRST_BACK_OFF;

  constructor(
    private readonly intervention: Intervention,
    private readonly deadlineMs: number,
  ) {}

  /**
   * `call` within the deadline, or `fallback` (also for an undefined answer). `step` is the
   * trainer's step; a call outside a step (`inStep` false: saving, restoring) is made whatever
   * happened in it and names the step before.
   */
  async ask<T>(
    what: string,
    call: () => T | Promise<T> | undefined,
    fallback: T,
    events: string[],
    step: number,
    inStep = true,
  ): Promise<T> {
    if (inStep && (this.downAt === step || step < this.asideUntil)) return fallback;
    // A step went by without a failure: the row is over.
    if (inStep && step > this.lastFailed + 1) [this.inRow, this.backOff] = [0, FIRST_BACK_OFF];
    const ms = this.deadlineMs;
    try {
      return (await withDeadline(Promise.resolve(call()), ms)) ?? fallback;
    } catch (e) {
      if (inStep) {
        this.downAt = step;
        if (step !== this.lastFailed) [this.inRow, this.lastFailed] = [this.inRow + 1, step];
      }
      const where = inStep ? `at step ${step}` : `after step ${step - 1}`;
      const name = this.intervention.name;
      const reason = `${name} ${what} failed ${where}: ${(e as Error).message}; going on without it`;
      events.push(reason);
      try {
        await withDeadline(Promise.resolve(this.intervention.recover?.(reason)), ms);
      } catch (err) {
        events.push(`${name} recovery failed: ${(err as Error).message}`);
      }
      if (inStep && this.inRow >= SET_ASIDE_AFTER) this.setAside(step, events);
      return fallback;
    }
  }

  private setAside(step: number, events: string[]): void {
    this.asideUntil = step + 1 + this.backOff;
    // The steps set aside count as failed: a failure when it is asked again sets it aside at once.
    this.lastFailed = this.asideUntil - 1;
    events.push(
      `${this.intervention.name} set aside after ${this.inRow} steps in a row with a failure: ` +
        `the steps go on without it; asked again at step ${this.asideUntil} (after ${this.backOff} steps)`,
    );
    this.backOff = Math.min(2 * this.backOff, MOST_BACK_OFF);
  }

  /** Whether a call failed in `step` (the intervention was then restarted afresh). */
  failedIn(step: number): boolean {
    return this.downAt === step;
  }

  /** Ask again from now on (a restored state hands the intervention a fresh start). */
  reset(): void {
    this.downAt = -1;
    [this.inRow, this.lastFailed, this.asideUntil, this.backOff] = [0, -2, -1, FIRST_BACK_OFF];
  }
}
