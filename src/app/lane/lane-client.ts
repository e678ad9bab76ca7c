import * as Comlink from 'comlink';
import type { LlmEnabled, LlmProgress, LlmSpec } from '../../mentor/api.ts';
import type { StepMetrics } from '../../rl/metrics.ts';
import type { SessionStatus } from '../../rl/session.ts';
import type { RolloutGroup } from '../../rl/rollouts.ts';
import type { LaneApi } from './lane.worker.ts';
import type { LaneConfig, LaneEvent, LaneInfo } from './lane-types.ts';

/** The page's handle on one lane's worker. */
export class LaneClient {
  private readonly worker = new Worker(new URL('./lane.worker.ts', import.meta.url), {
    type: 'module',
    name: 'lane',
  });
  private readonly api = Comlink.wrap<LaneApi>(this.worker);
  private endWorker!: () => void;
  /** Settles when the worker is ended: calls still waiting on it will never answer. */
  private readonly ended = new Promise<void>((resolve) => (this.endWorker = resolve));

  /** `startStep`: steps the checkpoint has already done (resuming a saved run); 0 for a base. */
  init(
    config: LaneConfig,
    checkpoint: Uint8Array,
    onEvent: (e: LaneEvent) => void,
    startStep = 0,
  ): Promise<LaneInfo> {
    // A copy: both lanes start from the same bytes, and transferring would empty them.
    const bytes = checkpoint.slice();
    return this.api.init(
      config,
      Comlink.transfer(bytes, [bytes.buffer]),
      Comlink.proxy(onEvent),
      startStep,
    );
  }

  play(): Promise<void> {
    return this.api.play();
  }
  pause(): Promise<void> {
    return this.api.pause();
  }
  step(): Promise<StepMetrics | null> {
    return this.api.step();
  }
  stop(): Promise<void> {
    return this.api.stop();
  }
  setLevel(level: number): Promise<void> {
    return this.api.setLevel(level);
  }
  status(): Promise<SessionStatus> {
    return this.api.status();
  }
  rollouts(): Promise<RolloutGroup[]> {
    return this.api.rollouts();
  }
  exportCheckpoint(): Promise<Uint8Array> {
    return this.api.exportCheckpoint();
  }
  /** Load a language model into the lane's mentor team (see the lane worker's enableLlm). */
  enableLlm(spec: LlmSpec, onProgress?: LlmProgress): Promise<LlmEnabled> {
    return Promise.race<LlmEnabled>([
      this.api.enableLlm(spec, onProgress ? Comlink.proxy(onProgress) : undefined),
      this.ended.then(() => ({ ok: false, message: 'the lane was restarted while it loaded' })),
    ]);
  }
  disableLlm(): Promise<void> {
    return Promise.race([this.api.disableLlm(), this.ended]);
  }
  loseDevice(): Promise<boolean> {
    return this.api.loseDevice();
  }
  dispose(): void {
    this.endWorker();
    this.worker.terminate();
  }
}
