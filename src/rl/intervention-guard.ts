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

/**
 * The trainer's calls on its intervention, each within the deadline. A failure or a missed
 * deadline costs that step the help (an event, then recover()), never the run; the rest of the
 * step makes no further calls, so a dead mentor costs at most one deadline per step.
 */
export class InterventionGuard {
  /** The step at which a call failed: the intervention is not asked again in that step. */
  private downAt = -1;

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
    if (inStep && this.downAt === step) return fallback;
    const ms = this.deadlineMs;
    try {
      return (await withDeadline(Promise.resolve(call()), ms)) ?? fallback;
    } catch (e) {
      if (inStep) this.downAt = step;
      const where = inStep ? `at step ${step}` : `after step ${step - 1}`;
      const name = this.intervention.name;
      const reason = `${name} ${what} failed ${where}: ${(e as Error).message}; going on without it`;
      events.push(reason);
      try {
        await withDeadline(Promise.resolve(this.intervention.recover?.(reason)), ms);
      } catch (err) {
        events.push(`${name} recovery failed: ${(err as Error).message}`);
      }
      return fallback;
    }
  }

  /** Whether a call failed in `step` (the intervention was then restarted afresh). */
  failedIn(step: number): boolean {
    return this.downAt === step;
  }

  /** Ask again from now on (a restored state hands the intervention a fresh start). */
  reset(): void {
    this.downAt = -1;
  }
}
