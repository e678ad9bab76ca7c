import * as Comlink from 'comlink';
import type { BackendPreference } from '../engine/create-backend.ts';
import type { CheckResult } from '../engine/selfcheck/check.ts';
import type { BackendInfo, BenchTable, SelfCheckApi } from './workers/selfcheck.worker.ts';

export type { BackendInfo, BenchTable, CheckResult };

/**
 * A dedicated worker that owns a backend and, on request, runs the kernel parity suite or the
 * benchmark (one at a time).
 */
export class SelfCheckClient {
  private readonly worker = new Worker(new URL('./workers/selfcheck.worker.ts', import.meta.url), {
    type: 'module',
    name: 'self-check',
  });
  private readonly api = Comlink.wrap<SelfCheckApi>(this.worker);

  init(preference: BackendPreference): Promise<BackendInfo> {
    return this.api.init(preference);
  }

  run(onResult: (r: CheckResult) => void): Promise<CheckResult[]> {
    return this.api.run(Comlink.proxy(onResult));
  }

  benchmark(onStage: (stage: string) => void): Promise<BenchTable> {
    return this.api.benchmark(Comlink.proxy(onStage));
  }

  dispose(): void {
    this.worker.terminate();
  }
}
