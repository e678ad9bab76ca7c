import type { StepMetrics } from './metrics.ts';
import type { RolloutGroup } from './rollouts.ts';

export type SessionState = 'paused' | 'running' | 'stopped' | 'error';

export interface SessionStatus {
  state: SessionState;
  /** Steps done so far. */
  step: number;
  level: number;
  message?: string;
}

/** What a session needs from a trainer: one step at a time, and a live difficulty. */
export interface Steppable {
  readonly step: number;
  readonly level: number;
  trainStep(): Promise<StepMetrics>;
  setLevel(level: number): void;
  readonly rollouts: RolloutGroup[];
}

export interface SessionListener {
  onStep?(m: StepMetrics): void;
  onStatus?(s: SessionStatus): void;
}

/**
 * Play / pause / single step / stop around a trainer, for the trainer worker and for Node. Steps
 * never overlap; between steps the loop yields so commands (pause, a new level) land at once.
 */
export class TrainerSession {
  private state: SessionState = 'paused';
  private running: Promise<void> | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private message: string | undefined;

  constructor(
    private readonly trainer: Steppable,
    private readonly listener: SessionListener = {},
    /** Stop by itself after this many steps (0 = never). */
    private readonly maxSteps = 0,
  ) {}

  status(): SessionStatus {
    return {
      state: this.state,
      step: this.trainer.step,
      level: this.trainer.level,
      message: this.message,
    };
  }

  private emit(): void {
    this.listener.onStatus?.(this.status());
  }

  /** Run one step after any step in progress, whatever the state (but never after stop). */
  step(): Promise<StepMetrics | null> {
    const next = this.chain.then(async () => {
      if (this.state === 'stopped' || this.state === 'error') return null;
      try {
        const m = await this.trainer.trainStep();
        this.listener.onStep?.(m);
        if (this.maxSteps > 0 && this.trainer.step >= this.maxSteps) this.stop();
        return m;
      } catch (e) {
        this.state = 'error';
        this.message = (e as Error).message;
        this.emit();
        return null;
      }
    });
    this.chain = next.catch(() => {});
    return next;
  }

  play(): void {
    if (this.state !== 'paused') return;
    this.state = 'running';
    this.emit();
    this.running ??= this.loop().finally(() => {
      this.running = null;
    });
  }

  pause(): void {
    if (this.state !== 'running') return;
    this.state = 'paused';
    this.emit();
  }

  stop(): void {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    this.emit();
  }

  setLevel(level: number): void {
    this.trainer.setLevel(level);
    this.emit();
  }

  rollouts(): RolloutGroup[] {
    return this.trainer.rollouts;
  }

  /** Resolves when the loop has stopped running steps. */
  async settled(): Promise<void> {
    await this.running;
    await this.chain;
  }

  private async loop(): Promise<void> {
    while (this.state === 'running') {
      await this.step();
      // Let queued messages (pause, level changes) in before the next step.
      await new Promise((r) => setTimeout(r, 0));
    }
  }
}
