// When charts, logs and readouts redraw: `tick` moves on the next animation frame. While training
// runs, the speed setting thins redraws out (fast: at most once a second; turbo: not at all).
import type { Speed } from './experiment-config.ts';

const FAST_REDRAW_MS = 1000;

export class RedrawClock {
  /** Moves when charts, logs and readouts should redraw. */
  tick = $state(0);
  private timer: ReturnType<typeof setTimeout> | null = null;
  private frame = 0;
  private lastDraw = 0;

  constructor(
    private readonly speed: () => Speed,
    private readonly running: () => boolean,
  ) {}

  /** Ask for a redraw; `force` draws on the next frame whatever the speed. */
  request(force = false): void {
    const speed = this.speed();
    if (!force && this.running()) {
      if (speed === 'turbo') return;
      if (speed === 'fast') {
        const wait = FAST_REDRAW_MS - (performance.now() - this.lastDraw);
        if (wait > 0) {
          this.timer ??= setTimeout(() => {
            this.timer = null;
            this.request(true);
          }, wait);
          return;
        }
      }
    }
    if (this.frame) return;
    const frame =
      typeof requestAnimationFrame === 'function'
        ? requestAnimationFrame
        : (f: () => void) => setTimeout(f, 16);
    this.frame = frame(() => {
      this.frame = 0;
      this.lastDraw = performance.now();
      this.tick++;
    }) as number;
  }
}
